//! zkpipe-sys found libzkpipe (DEP_ZKPIPE_LIB_DIR, from its `links = "zkpipe"`); its rpath
//! reaches only zkpipe-sys's own targets, so this crate's tests, examples and doctests
//! get the same rpath here and run without LD_LIBRARY_PATH.
fn main() {
    if let Ok(dir) = std::env::var("DEP_ZKPIPE_LIB_DIR") {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{dir}");
    }
}
