//! What the integration tests share: the committed vectors and a .wtns reader.
#![allow(dead_code)] // each test file uses part of it
use std::path::{Path, PathBuf};
use zkpipe::Scalar;

pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

/// Every committed vector folder: circuit.zkey, witness.wtns, public.json, proof.json.
pub fn vector_dirs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    for parent in ["tests/vectors/data", "tests/groth16/data", "samples/circuits"] {
        let entries = std::fs::read_dir(repo().join(parent)).unwrap_or_else(|e| panic!("{parent}: {e}"));
        for e in entries {
            let dir = e.unwrap().path();
            if dir.join("circuit.zkey").exists() && dir.join("witness.wtns").exists() {
                dirs.push(dir);
            }
        }
    }
    dirs.sort();
    assert!(dirs.len() >= 11, "found only {} vector folders", dirs.len());
    dirs
}

/// The full assignment in a snarkjs .wtns file (32-byte scalars).
pub fn wtns_assignment(bytes: &[u8]) -> Vec<Scalar> {
    let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().unwrap()) as usize;
    let u64_at = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().unwrap()) as usize;
    assert_eq!(&bytes[..4], b"wtns");
    let (mut at, mut n8, mut n_vars) = (12, 0, 0);
    for _ in 0..u32_at(8) {
        let (kind, size) = (u32_at(at), u64_at(at + 4));
        at += 12;
        match kind {
            1 => (n8, n_vars) = (u32_at(at), u32_at(at + 4 + u32_at(at))),
            2 => {
                assert_eq!(n8, 32, "scalars of 32 bytes");
                return Scalar::vec_from_bytes(&bytes[at..at + n_vars * 32]).unwrap();
            }
            _ => {}
        }
        at += size;
    }
    panic!("no witness section");
}

pub fn read(path: impl AsRef<Path>) -> Vec<u8> {
    std::fs::read(path.as_ref()).unwrap_or_else(|e| panic!("{}: {e}", path.as_ref().display()))
}

pub fn read_text(path: impl AsRef<Path>) -> String {
    String::from_utf8(read(path)).unwrap()
}
