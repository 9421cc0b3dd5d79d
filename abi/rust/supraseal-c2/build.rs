//! As the zkpipe crate's build.rs: zkpipe-sys's rpath to libzkpipe reaches only its own
//! targets, so this crate's tests and doctests get it here (from zkpipe-sys's `links`
//! metadata) and run without LD_LIBRARY_PATH. A program linking this crate (filecoin-ffi's
//! libfilcrypto, cuzk) finds libzkpipe through its own rpath or LD_LIBRARY_PATH (README.md).
fn main() {
    if let Ok(dir) = std::env::var("DEP_ZKPIPE_LIB_DIR") {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{dir}");
    }
}
