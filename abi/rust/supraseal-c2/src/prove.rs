//! From supraseal's raw arguments to one zkpipe job and back: the caller's memory borrowed
//! as zkpipe scalars and densities (Montgomery form, as zkpipe takes a bellperson
//! synthesis), r and s out of Montgomery form (zkpipe's job randomness is standard form),
//! and zkpipe's proofs (standard-form little-endian coordinates) as blst affine points.
use crate::field::{fp_to_montgomery, fr_from_montgomery, limbs4, limbs6};
use crate::srs_file::EINVAL;
use crate::{cuda, Assignment, SRS};
use zkpipe::Scalar;

/// A proof as blst lays out bellperson's `Proof<Bls12>` (blstrs G1Affine, G2Affine,
/// G1Affine: blst_p1_affine, blst_p2_affine, blst_p1_affine): eight Fp coordinates of six
/// u64 limbs each, Montgomery form, G2 coordinates c0 then c1.
pub(crate) const PROOF_BYTES: usize = 384;
pub(crate) type BlstProof = [u8; PROOF_BYTES];
const SCALAR_BYTES: usize = 32;
const FP_BYTES: usize = 48;

// Density words are read as u64 through supraseal's `*const usize`.
const _: () = assert!(usize::BITS == 64, "supraseal's density words are usize; zkpipe reads u64");

/// Proofs started by `start_groth16_proof`, whose inputs zkpipe reads no more, waiting for
/// `finish_groth16_proof` (dropping it cancels what has not run).
#[cfg(feature = "cuzk")]
pub(crate) struct Pending {
    pub(crate) proofs: zkpipe::supraseal::PendingProof<'static>,
}

fn invalid(message: String) -> cuda::Error {
    cuda::Error::new(EINVAL, format!("supraseal-c2 (zkpipe): {message}"))
}

fn check_scalar<S>() -> Result<(), cuda::Error> {
    match std::mem::size_of::<S>() {
        SCALAR_BYTES => Ok(()),
        n => Err(invalid(format!("a scalar is {n} bytes; a BLS12-381 Fr (blstrs Scalar) is {SCALAR_BYTES}"))),
    }
}

fn check_proof<PR>() -> Result<(), cuda::Error> {
    match std::mem::size_of::<PR>() {
        PROOF_BYTES => Ok(()),
        n => Err(invalid(format!("a proof is {n} bytes; bellperson's Proof<Bls12> (blst G1, G2, G1 affine) is {PROOF_BYTES}"))),
    }
}

/// `len` elements at `ptr`, for a lifetime the caller vouches for; `what` names a null
/// pointer with elements behind it.
///
/// # Safety
/// Unless null, `ptr` is valid for `len` reads of T for `'a`.
unsafe fn borrowed<'a, T>(ptr: *const T, len: usize, what: &dyn Fn() -> String) -> Result<&'a [T], cuda::Error> {
    match (ptr.is_null(), len) {
        (_, 0) => Ok(&[]),
        (true, _) => Err(invalid(format!("{} is null, with {len} elements", what()))),
        // SAFETY: the caller's promise, as supraseal's C++ takes it.
        (false, _) => Ok(unsafe { std::slice::from_raw_parts(ptr, len) }),
    }
}

/// circuit `c`'s raw assignment as zkpipe's borrowed one. S is 32 bytes (checked): a
/// blstrs Scalar, whose memory zkpipe's `Scalar` (32 bytes, alignment 1) views in place.
///
/// # Safety
/// The pointers are valid for their sizes for `'a` (supraseal's contract).
unsafe fn assignment<'a, S>(c: usize, p: &Assignment<S>) -> Result<zkpipe::supraseal::Assignment<'a>, cuda::Error> {
    let scalars = |ptr: *const S, len: usize, name: &'static str| unsafe { borrowed(ptr.cast::<Scalar>(), len, &|| format!("circuit {c}: {name}")) };
    let words =
        |ptr: *const usize, bits: usize, name: &'static str| unsafe { borrowed(ptr.cast::<u64>(), bits.div_ceil(64), &|| format!("circuit {c}: {name}")) };
    Ok(zkpipe::supraseal::Assignment {
        a_aux_density: words(p.a_aux_density, p.a_aux_bit_len, "a_aux_density")?,
        a_aux_bit_len: p.a_aux_bit_len,
        a_aux_popcount: p.a_aux_popcount,
        b_inp_density: words(p.b_inp_density, p.b_inp_bit_len, "b_inp_density")?,
        b_inp_bit_len: p.b_inp_bit_len,
        b_inp_popcount: p.b_inp_popcount,
        b_aux_density: words(p.b_aux_density, p.b_aux_bit_len, "b_aux_density")?,
        b_aux_bit_len: p.b_aux_bit_len,
        b_aux_popcount: p.b_aux_popcount,
        a: scalars(p.a, p.abc_size, "a")?,
        b: scalars(p.b, p.abc_size, "b")?,
        c: scalars(p.c, p.abc_size, "c")?,
        abc_size: p.abc_size,
        inp_assignment_data: scalars(p.inp_assignment_data, p.inp_assignment_size, "inp_assignment_data")?,
        inp_assignment_size: p.inp_assignment_size,
        aux_assignment_data: scalars(p.aux_assignment_data, p.aux_assignment_size, "aux_assignment_data")?,
        aux_assignment_size: p.aux_assignment_size,
    })
}

/// A blstrs Scalar's memory (Montgomery form) as zkpipe's standard-form scalar.
fn standard<S>(v: &S) -> Scalar {
    // SAFETY: S is 32 bytes (checked by the caller); any bytes are a valid [u8; 32].
    let bytes: [u8; SCALAR_BYTES] = unsafe { std::ptr::read_unaligned((v as *const S).cast()) };
    let limbs = fr_from_montgomery(limbs4(&bytes));
    let mut out = [0u8; SCALAR_BYTES];
    for (chunk, limb) in out.chunks_exact_mut(8).zip(limbs) {
        chunk.copy_from_slice(&limb.to_le_bytes());
    }
    Scalar(out)
}

/// zkpipe's proof bytes as blst's.
fn to_blst(proof: &zkpipe::Proof) -> Result<BlstProof, cuda::Error> {
    let bytes = proof.as_bytes();
    if bytes.len() != PROOF_BYTES {
        return Err(invalid(format!("zkpipe delivered a {:?} proof of {} bytes, not a BLS12-381 one", proof.curve(), bytes.len())));
    }
    let mut out = [0u8; PROOF_BYTES];
    for (dst, src) in out.chunks_exact_mut(FP_BYTES).zip(bytes.chunks_exact(FP_BYTES)) {
        // The point at infinity is all zeros in both (0 is 0 in Montgomery form).
        for (limb_bytes, limb) in dst.chunks_exact_mut(8).zip(fp_to_montgomery(limbs6(src))) {
            limb_bytes.copy_from_slice(&limb.to_ne_bytes());
        }
    }
    Ok(out)
}

/// Proves `provers` as one zkpipe job with one partition per circuit and waits for it;
/// `gpu_index` -1 (or below) for any device, n for device n.
pub(crate) fn run<S>(provers: &[Assignment<S>], r_s: &[S], s_s: &[S], srs: &SRS, gpu_index: i32) -> Result<Vec<BlstProof>, cuda::Error> {
    check_scalar::<S>()?;
    if provers.is_empty() {
        return Ok(Vec::new());
    }
    let srs = srs.loaded()?;
    // SAFETY: the caller's pointers are valid until this returns (supraseal's contract), and
    // the scope below waits for the job before it returns.
    let assignments = provers.iter().enumerate().map(|(c, p)| unsafe { assignment(c, p) }).collect::<Result<Vec<_>, _>>()?;
    let (r, s): (Vec<Scalar>, Vec<Scalar>) = (r_s.iter().map(standard).collect(), s_s.iter().map(standard).collect());
    let proofs = srs.scope(|scope| scope.start(&assignments, &r, &s, gpu_index.max(-1))?.finish()).map_err(crate::from_zkpipe)?;
    proofs.iter().map(to_blst).collect()
}

/// Starts `provers` as one zkpipe job and returns once zkpipe reads none of the caller's
/// buffers (`SRS::start_released`): cuzk's start. `gpu_index` as for `run`.
#[cfg(feature = "cuzk")]
pub(crate) fn start<S>(provers: &[Assignment<S>], r_s: &[S], s_s: &[S], srs: &SRS, gpu_index: i32) -> Result<Option<Pending>, cuda::Error> {
    check_scalar::<S>()?;
    if provers.is_empty() {
        return Ok(None);
    }
    let srs = srs.loaded()?;
    // SAFETY: the caller's pointers are valid until this returns (supraseal's contract), and
    // start_released returns only once zkpipe reads none of them.
    let assignments = provers.iter().enumerate().map(|(c, p)| unsafe { assignment(c, p) }).collect::<Result<Vec<_>, _>>()?;
    let (r, s): (Vec<Scalar>, Vec<Scalar>) = (r_s.iter().map(standard).collect(), s_s.iter().map(standard).collect());
    let proofs = srs.start_released(&assignments, &r, &s, gpu_index.max(-1)).map_err(crate::from_zkpipe)?;
    Ok(Some(Pending { proofs }))
}

/// The proofs of a started job, as blst's bytes, once it has finished.
#[cfg(feature = "cuzk")]
pub(crate) fn finish(pending: Option<Pending>) -> Result<Vec<BlstProof>, cuda::Error> {
    match pending {
        None => Ok(Vec::new()),
        Some(p) => p.proofs.finish().map_err(crate::from_zkpipe)?.iter().map(to_blst).collect(),
    }
}

/// Writes `done` into the caller's proof array (at least as long; its memory may be
/// uninitialised, as bellperson's `set_len` leaves it).
pub(crate) fn write<PR>(done: &[BlstProof], proofs: &mut [PR]) -> Result<(), cuda::Error> {
    check_proof::<PR>()?;
    if proofs.len() < done.len() {
        return Err(invalid(format!("{} proofs to write into room for {}", done.len(), proofs.len())));
    }
    // SAFETY: PR is PROOF_BYTES bytes (checked) and there is room for done.len() of them;
    // bytes are copied, so neither alignment nor initialisation matters.
    unsafe { std::ptr::copy_nonoverlapping(done.as_ptr().cast::<u8>(), proofs.as_mut_ptr().cast::<u8>(), done.len() * PROOF_BYTES) };
    Ok(())
}

/// Checks the proof type, proves and writes: the synchronous entry points.
pub(crate) fn into<S, PR>(provers: &[Assignment<S>], r_s: &[S], s_s: &[S], proofs: &mut [PR], srs: &SRS, gpu_index: i32) -> Result<(), cuda::Error> {
    check_proof::<PR>()?;
    write(&run(provers, r_s, s_s, srs, gpu_index)?, proofs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proof_coordinates_land_in_montgomery_form_in_order() {
        // A = (1, 2), B = ((3, 4), (5, 6)), C = infinity: not points, only the layout.
        let mut bytes = vec![0u8; PROOF_BYTES];
        for (i, v) in [1u8, 2, 3, 4, 5, 6].into_iter().enumerate() {
            bytes[i * FP_BYTES] = v;
        }
        let proof = zkpipe::Proof::from_bytes(zkpipe::Curve::Bls12_381, &bytes).unwrap();
        let blst = to_blst(&proof).unwrap();
        let limbs: Vec<u64> = blst.chunks_exact(8).map(|b| u64::from_ne_bytes(b.try_into().unwrap())).collect();
        for (i, v) in [1u64, 2, 3, 4, 5, 6].into_iter().enumerate() {
            assert_eq!(limbs[i * 6..i * 6 + 6], fp_to_montgomery([v, 0, 0, 0, 0, 0]), "coordinate {i}");
        }
        assert!(limbs[36..].iter().all(|&l| l == 0), "infinity stays all zeros");
    }

    #[test]
    fn proof_and_scalar_sizes_are_checked() {
        assert!(check_proof::<[u64; 48]>().is_ok());
        let e = check_proof::<[u64; 47]>().unwrap_err();
        assert_eq!((e.code, e.to_string().contains("a proof is 376 bytes")), (EINVAL, true), "{e}");
        assert!(check_scalar::<[u64; 4]>().is_ok());
        assert!(check_scalar::<[u64; 5]>().unwrap_err().to_string().contains("a scalar is 40 bytes"));
        let mut room = vec![[0u64; 48]; 1];
        assert!(write(&[[0u8; PROOF_BYTES]; 2], &mut room).unwrap_err().to_string().contains("2 proofs to write into room for 1"));
    }

    #[test]
    fn a_null_pointer_with_elements_is_refused_by_name() {
        let e = unsafe { borrowed::<u64>(std::ptr::null(), 3, &|| "circuit 2: b".into()) }.unwrap_err();
        assert_eq!(e.to_string(), "supraseal-c2 (zkpipe): circuit 2: b is null, with 3 elements");
        assert!(unsafe { borrowed::<u64>(std::ptr::null(), 0, &|| String::new()) }.unwrap().is_empty());
    }

    #[test]
    fn montgomery_r_and_s_become_standard_scalars() {
        // 5·2^256 mod r, as a blstrs Scalar holds 5.
        let five_mont: [u64; 4] = [0x0000_000a_ffff_fff5, 0x66d9_f3df_0012_0c0b, 0xcc83_b7a7_960b_b7c5, 0x04c9_cf6d_363b_9de5];
        assert_eq!(standard(&five_mont), Scalar::from_u64(5));
        assert_eq!(standard(&[0u64; 4]), Scalar::ZERO);
    }
}
