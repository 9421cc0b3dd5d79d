//! Finds libzkpipe: ZKPIPE_LIB_DIR (a folder holding libzkpipe.so, e.g. a build's lib/) if
//! set, else `pkg-config zkpipe` (an installed zkpipe.pc), and links it so that programs
//! depending on this crate run without LD_LIBRARY_PATH when it is installed
//! (../linking/link.rs says how). `links = "zkpipe"` hands the folder to dependent
//! crates' build scripts as DEP_ZKPIPE_LIB_DIR.
#[path = "../linking/link.rs"]
mod link;

fn main() {
    let dir = link::find_and_link("zkpipe", "zkpipe");
    println!("cargo:lib_dir={dir}");
}
