//! Finds libzkpipe: ZKPIPE_LIB_DIR (a folder holding libzkpipe.so, e.g. a build's lib/)
//! if set, else `pkg-config zkpipe` (an installed zkpipe.pc). The rpath lets programs
//! linked this way run without LD_LIBRARY_PATH. `links = "zkpipe"` hands the folder to
//! dependent crates' build scripts as DEP_ZKPIPE_LIB_DIR.
use std::env;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=ZKPIPE_LIB_DIR");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");
    let dir = match env::var("ZKPIPE_LIB_DIR") {
        Ok(dir) if !dir.is_empty() => dir,
        _ => pkg_config_libdir().unwrap_or_else(|why| {
            panic!("zkpipe-sys: set ZKPIPE_LIB_DIR to the folder holding libzkpipe.so, or install zkpipe.pc for pkg-config ({why})")
        }),
    };
    println!("cargo:rustc-link-search=native={dir}");
    println!("cargo:rustc-link-lib=dylib=zkpipe");
    println!("cargo:rustc-link-arg=-Wl,-rpath,{dir}");
    println!("cargo:lib_dir={dir}");
}

fn pkg_config_libdir() -> Result<String, String> {
    let out = Command::new(env::var("PKG_CONFIG").unwrap_or_else(|_| "pkg-config".into()))
        .args(["--variable=libdir", "zkpipe"])
        .output()
        .map_err(|e| format!("cannot run pkg-config: {e}"))?;
    if !out.status.success() {
        return Err(format!("pkg-config zkpipe: {}", String::from_utf8_lossy(&out.stderr).trim()));
    }
    let dir = String::from_utf8_lossy(&out.stdout).trim().to_string();
    if dir.is_empty() {
        return Err("pkg-config zkpipe has no libdir".into());
    }
    Ok(dir)
}
