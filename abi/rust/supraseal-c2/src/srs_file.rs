//! The checks supraseal's `create_SRS` makes of a parameter file before it reads the points
//! (c2/cuda/groth16_srs.cuh, `SRS_internal`), with its error codes and messages: the file
//! opens (else errno and `open("PATH") failed: <strerror>`), and the six section counts and
//! their points fit in it (else EINVAL and `SRS file size/layout mismatch`). zkpipe's key
//! loader checks everything again, and more (every point on the curve and in its subgroup).
use crate::cuda;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};

pub(crate) const EINVAL: i32 = 22;
pub(crate) const EIO: i32 = 5;

const G1_BYTES: u64 = 96;
const G2_BYTES: u64 = 192;
/// The verifying key's alpha_g1, beta_g1, beta_g2, gamma_g2, delta_g1, delta_g2.
const VK_BYTES: u64 = 3 * G1_BYTES + 3 * G2_BYTES;
/// Point sizes of the sections after the verifying key: ic, h, l, a, b_g1, b_g2.
const SECTIONS: [u64; 6] = [G1_BYTES, G1_BYTES, G1_BYTES, G1_BYTES, G1_BYTES, G2_BYTES];

/// strerror's text for an OS error, as std spells it without " (os error N)".
fn strerror(code: i32) -> String {
    let text = std::io::Error::from_raw_os_error(code).to_string();
    match text.rfind(" (os error ") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

fn io_error(e: &std::io::Error, what: &str) -> cuda::Error {
    let code = e.raw_os_error().unwrap_or(EIO);
    cuda::Error::new(code, format!("{what}{}", strerror(code)))
}

fn mismatch() -> cuda::Error {
    cuda::Error::new(EINVAL, "SRS file size/layout mismatch".to_string())
}

pub(crate) fn check(path: &str) -> Result<(), cuda::Error> {
    let mut file = File::open(path).map_err(|e| io_error(&e, &format!("open(\"{path}\") failed: ")))?;
    let size = file.metadata().map_err(|e| io_error(&e, "fstat(srs_file) failed: "))?.len();
    let mut cursor = VK_BYTES;
    for point_bytes in SECTIONS {
        // As supraseal: a count must start before the last four bytes.
        if size <= cursor.saturating_add(4) {
            return Err(mismatch());
        }
        let mut count = [0u8; 4];
        file.seek(SeekFrom::Start(cursor)).and_then(|_| file.read_exact(&mut count)).map_err(|e| io_error(&e, "read(srs_file) failed: "))?;
        cursor = cursor.saturating_add(4).saturating_add(u64::from(u32::from_be_bytes(count)).saturating_mul(point_bytes));
    }
    if size < cursor {
        return Err(mismatch());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file_of(name: &str, bytes: &[u8]) -> std::path::PathBuf {
        let path = std::env::temp_dir().join(format!("supraseal-c2-srs-file-{}-{name}", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        path
    }

    /// A file of the right shape: the vk, then counts (big-endian) and zeroed points.
    fn layout(counts: [u32; 6]) -> Vec<u8> {
        let mut bytes = vec![0u8; VK_BYTES as usize];
        for (count, point_bytes) in counts.into_iter().zip(SECTIONS) {
            bytes.extend(count.to_be_bytes());
            bytes.resize(bytes.len() + count as usize * point_bytes as usize, 0);
        }
        bytes
    }

    #[test]
    fn a_missing_file_is_errno_and_supraseals_message() {
        let e = check("/nonexistent/supraseal-c2.params").unwrap_err();
        assert_eq!(e.code, 2);
        assert_eq!(e.to_string(), "open(\"/nonexistent/supraseal-c2.params\") failed: No such file or directory");
    }

    #[test]
    fn every_section_must_fit() {
        let whole = layout([2, 4, 3, 5, 5, 2]);
        let path = file_of("whole", &whole);
        check(path.to_str().unwrap()).unwrap();
        // Longer is fine (supraseal only checks that the sections fit).
        let longer = file_of("longer", &[whole.clone(), vec![0; 7]].concat());
        check(longer.to_str().unwrap()).unwrap();
        for cut in [0, 100, VK_BYTES as usize, VK_BYTES as usize + 4, whole.len() / 2, whole.len() - 1] {
            let path = file_of("cut", &whole[..cut]);
            let e = check(path.to_str().unwrap()).unwrap_err();
            assert_eq!((e.code, e.to_string().as_str()), (EINVAL, "SRS file size/layout mismatch"), "cut at {cut}");
        }
        // The last count (b_g2, big-endian, before its two points) claims three.
        let mut claims = whole.clone();
        claims[whole.len() - 2 * G2_BYTES as usize - 1] = 3;
        let path = file_of("claims", &claims);
        assert_eq!(check(path.to_str().unwrap()).unwrap_err().code, EINVAL);
        for name in ["whole", "longer", "cut", "claims"] {
            let _ = std::fs::remove_file(std::env::temp_dir().join(format!("supraseal-c2-srs-file-{}-{name}", std::process::id())));
        }
    }
}
