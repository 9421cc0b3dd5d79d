// Links libzkpipe from ZKPIPE_LIB_DIR (the build's lib folder), with an rpath so the
// sample runs from there without LD_LIBRARY_PATH.
fn main() {
    println!("cargo:rerun-if-env-changed=ZKPIPE_LIB_DIR");
    let dir = std::env::var("ZKPIPE_LIB_DIR").expect("set ZKPIPE_LIB_DIR to the folder holding libzkpipe.so");
    println!("cargo:rustc-link-search=native={dir}");
    println!("cargo:rustc-link-lib=dylib=zkpipe");
    println!("cargo:rustc-link-arg=-Wl,-rpath,{dir}");
}
