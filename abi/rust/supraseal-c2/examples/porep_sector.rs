//! porep_sector PARAMS [CIRCUITS] [REPS]: a sector's partitions (default 10) of the shape of a
//! bellperson parameter file, proved through this crate (`generate_groth16_proofs`, as
//! bellperson calls it) and through zkpipe's C API (the zkpipe crate's job of synthesized
//! partitions, `zkp_host_submit`), interleaved, REPS times each (default 3); prints the median
//! wall time per partition of each and their ratio. The partitions are synthetic (random
//! Montgomery scalars, densities that fit the file's query sizes; a·b = c row by row, but no
//! circuit behind them) and do not verify: the config ZKPIPE_SUPRASEAL_CONFIG names should set
//! `self_check = false` and, under `[prover]`, `verify = false`. Both routes read that config and
//! the same buffers (one set, shared by every partition).
//! With the `cuzk` feature a third route runs: Curio's cuzk call pattern, one partition per
//! `start_groth16_proof` on device 0, each handle finished on another thread while the next is
//! started; it prints the time per partition and how long a start took (median).
//! docs/perf-data/2026-12-07-supraseal-crate/run.sh runs it on a GPU machine.
use std::io::{Read, Seek, SeekFrom};
use std::time::Instant;
use supraseal_c2::{generate_groth16_proofs, Assignment, SRS};
use zkpipe::{Density, Host, KeyFormat, KeySource, Scalar, Synthesized};

/// The counts of ic, h, l, a, b_g1, b_g2 (big-endian u32 before each section).
fn counts(path: &str) -> [usize; 6] {
    let mut f = std::fs::File::open(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut at = 3 * 96 + 3 * 192;
    std::array::from_fn(|i| {
        let mut b = [0u8; 4];
        f.seek(SeekFrom::Start(at)).and_then(|_| f.read_exact(&mut b)).unwrap();
        let n = u32::from_be_bytes(b) as u64;
        at += 4 + n * if i == 5 { 192 } else { 96 };
        n as usize
    })
}

fn bits(len: usize, ones: usize) -> Vec<u64> {
    (0..len.div_ceil(64)).map(|w| (0..64).filter(|b| w * 64 + b < ones).fold(0u64, |acc, b| acc | 1 << b)).collect()
}

fn random(n: usize, seed: &mut u64) -> Vec<[u64; 4]> {
    let mut next = || {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    };
    // Below 2^254 < r: valid Montgomery-form scalars.
    (0..n).map(|_| [next(), next(), next(), next() >> 2]).collect()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// cuzk's pattern: start one partition at a time on device 0, finish on another thread. Returns
/// the wall time per partition and the median time a start took, both in ms.
#[cfg(feature = "cuzk")]
fn split(provers: &[Assignment<[u64; 4]>], densities: [&[u64]; 3], rs: &[[u64; 4]], srs: &SRS) -> (f64, f64) {
    use supraseal_c2::{finish_groth16_proof, start_groth16_proof};
    struct Handle(*mut core::ffi::c_void);
    // SAFETY: a pending proof owns plain data and is finished once, on the other thread.
    unsafe impl Send for Handle {}
    let (tx, rx) = std::sync::mpsc::channel::<Handle>();
    let t = Instant::now();
    let mut start_ms = Vec::new();
    std::thread::scope(|scope| {
        let finisher = scope.spawn(move || {
            for h in rx {
                let mut proof = vec![[0u64; 48]; 1];
                finish_groth16_proof(h.0, &mut proof);
            }
        });
        for p in provers {
            let t0 = Instant::now();
            let h = start_groth16_proof(
                &[p.a],
                &[p.b],
                &[p.c],
                p.abc_size,
                &[p.inp_assignment_data],
                &[p.aux_assignment_data],
                p.inp_assignment_size,
                p.aux_assignment_size,
                densities[0],
                densities[1],
                densities[2],
                p.a_aux_popcount,
                p.b_inp_popcount,
                p.b_aux_popcount,
                1,
                &rs[..1],
                &rs[..1],
                srs,
                std::ptr::null_mut(),
                0,
            );
            start_ms.push(t0.elapsed().as_secs_f64() * 1e3);
            tx.send(Handle(h)).unwrap();
        }
        drop(tx);
        finisher.join().unwrap();
    });
    (t.elapsed().as_secs_f64() * 1e3 / provers.len() as f64, median(start_ms))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let params = args.get(1).expect("usage: porep_sector PARAMS [CIRCUITS] [REPS]");
    let circuits: usize = args.get(2).map_or(10, |v| v.parse().expect("CIRCUITS"));
    let reps: usize = args.get(3).map_or(3, |v| v.parse().expect("REPS"));
    let [ic, h, l, a, b_g1, _] = counts(params);
    let (n_inp, n_aux, rows) = (ic, l, h + 1);
    let (b_inp_ones, a_aux_ones) = (b_g1.min(n_inp), a - n_inp);
    let b_aux_ones = b_g1 - b_inp_ones;
    println!("{params}: {rows} rows, {n_inp} inputs, {n_aux} aux; {circuits} partitions, {reps} reps");

    let mut seed = 0x9e37_79b9_7f4a_7c15;
    // 1 in Montgomery form. Rows hold a·b = c (the provers check it): b = 1, c = a. The H step's
    // NTTs take the same time whatever the values; the MSMs' scalars (the assignment) are random.
    let one = [0x0000_0001_ffff_fffe, 0x5884_b7fa_0003_4802, 0x998c_4fef_ecbc_4ff5, 0x1824_b159_acc5_056f];
    let av = random(rows, &mut seed);
    let (bv, cv) = (vec![one; rows], av.clone());
    let (mut inp, aux) = (random(n_inp, &mut seed), random(n_aux, &mut seed));
    inp[0] = one;
    let (a_aux, b_inp, b_aux) = (bits(n_aux, a_aux_ones), bits(n_inp, b_inp_ones), bits(n_aux, b_aux_ones));

    println!("crate: zkpipe prover {}", supraseal_c2::zkpipe_prover().unwrap());
    let config = std::env::var_os(supraseal_c2::CONFIG_ENV).map(std::path::PathBuf::from);

    let provers: Vec<Assignment<[u64; 4]>> = (0..circuits)
        .map(|_| Assignment {
            a_aux_density: a_aux.as_ptr().cast(),
            a_aux_bit_len: n_aux,
            a_aux_popcount: a_aux_ones,
            b_inp_density: b_inp.as_ptr().cast(),
            b_inp_bit_len: n_inp,
            b_inp_popcount: b_inp_ones,
            b_aux_density: b_aux.as_ptr().cast(),
            b_aux_bit_len: n_aux,
            b_aux_popcount: b_aux_ones,
            a: av.as_ptr(),
            b: bv.as_ptr(),
            c: cv.as_ptr(),
            abc_size: rows,
            inp_assignment_data: inp.as_ptr(),
            inp_assignment_size: n_inp,
            aux_assignment_data: aux.as_ptr(),
            aux_assignment_size: n_aux,
        })
        .collect();
    let rs = vec![[0u64; 4]; circuits];
    let view = |v: &[[u64; 4]]| -> Vec<Scalar> { v.iter().map(|x| Scalar(std::array::from_fn(|i| (x[i / 8] >> (8 * (i % 8))) as u8))).collect() };
    let (za, zb, zc, zi, zx) = (view(&av), view(&bv), view(&cv), view(&inp), view(&aux));

    // Each route loads the key in its own host, one after the other: a PoRep-sized key and its
    // MSM scratch fill most of a GPU, so two hosts holding it at once do not fit. The timed part
    // is the batch alone; the load is outside it, for both.
    let (mut crate_ms, mut capi_ms) = (Vec::new(), Vec::new());
    #[cfg(feature = "cuzk")]
    let (mut split_ms, mut start_ms) = (Vec::new(), Vec::new());
    for rep in 0..reps {
        let srs = SRS::try_new(params.into(), false).unwrap_or_else(|e| panic!("SRS::try_new: {e}"));
        let t = Instant::now();
        let mut proofs: Vec<[u64; 48]> = vec![[0; 48]; circuits];
        generate_groth16_proofs(&provers, &rs, &rs, &mut proofs, &srs);
        crate_ms.push(t.elapsed().as_secs_f64() * 1e3 / circuits as f64);
        drop(srs);

        let host = config.as_ref().map_or_else(Host::builder, |c| Host::builder().config(c)).build().expect("host");
        let key = host.load_key(KeySource::path(params).format(KeyFormat::Bellperson)).expect("key");
        let t = Instant::now();
        let summary = host.scope(|s| {
            let partition = || {
                Synthesized::new(&za[..], &zb[..], &zc[..], &zi[..])
                    .with_aux_assignment(&zx[..])
                    .with_densities(Density::new(&a_aux[..], n_aux as u64), Density::new(&b_inp[..], n_inp as u64), Density::new(&b_aux[..], n_aux as u64))
                    .in_montgomery_form()
                    .into()
            };
            s.job(&key).partitions((0..circuits).map(|_| partition())).submit().and_then(|j| j.wait())
        });
        let summary = summary.expect("C API job");
        assert_eq!(summary.failed, 0, "C API job: {summary:?}");
        capi_ms.push(t.elapsed().as_secs_f64() * 1e3 / circuits as f64);
        drop(host);
        println!("rep {rep}: crate {:.0} ms, C API {:.0} ms per partition", crate_ms[rep], capi_ms[rep]);
        #[cfg(feature = "cuzk")]
        {
            let srs = SRS::try_new(params.into(), false).unwrap_or_else(|e| panic!("SRS::try_new: {e}"));
            let (per, start) = split(&provers, [&a_aux, &b_inp, &b_aux], &rs, &srs);
            println!("rep {rep}: cuzk split (start one, finish on another thread) {per:.0} ms per partition, a start {start:.0} ms");
            split_ms.push(per);
            start_ms.push(start);
        }
    }
    #[cfg(feature = "cuzk")]
    println!("RESULT cuzk_split_ms_per_partition={:.0} start_ms={:.0}", median(split_ms), median(start_ms));
    let (c, z) = (median(crate_ms), median(capi_ms));
    println!("RESULT circuits={circuits} crate_ms_per_partition={c:.0} capi_ms_per_partition={z:.0} ratio_crate_over_capi={:.3}", c / z);
}
