// How the zkpipe crates' build scripts find and link a zkpipe C library (libzkpipe,
// libzkpipe_client): included by zkpipe-sys/build.rs and zkpipe-client/build.rs with
// `#[path = "../linking/link.rs"] mod link;`.
//
// Two routes:
// - ZKPIPE_LIB_DIR (a build tree's lib/): linked by name, as usual. The crate's own tests and
//   examples get an rpath to the folder; any other program finds the library the way the
//   dynamic loader does (LD_LIBRARY_PATH, the loader's cache), so a build copied elsewhere
//   (a device machine's bundle) runs with LD_LIBRARY_PATH pointing at the copy.
// - pkg-config (an installed package): every program that depends on the crate, however deep,
//   must run without LD_LIBRARY_PATH. Cargo passes a build script's link arguments (an rpath)
//   to that crate's own targets only, never to its dependents, so an rpath cannot reach them.
//   What does reach every program is the library it is linked against: here a stub made in
//   OUT_DIR, with the installed library's functions as empty bodies and, as its SONAME, the
//   installed library's absolute path. The program's DT_NEEDED then names that path and the
//   loader opens it directly. (A program so linked ignores LD_LIBRARY_PATH for this library, as
//   with an rpath; an installed zkpipe moved elsewhere needs its programs relinked.)
use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Finds `lib` (`"zkpipe"` for libzkpipe.so) through ZKPIPE_LIB_DIR or `pkg-config PACKAGE`
/// and tells cargo how to link it. Returns the folder the library is in.
pub fn find_and_link(lib: &str, package: &str) -> String {
    println!("cargo:rerun-if-env-changed=ZKPIPE_LIB_DIR");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");
    if let Ok(dir) = env::var("ZKPIPE_LIB_DIR") {
        if !dir.is_empty() {
            println!("cargo:rustc-link-search=native={dir}");
            println!("cargo:rustc-link-lib=dylib={lib}");
            println!("cargo:rustc-link-arg=-Wl,-rpath,{dir}");
            return dir;
        }
    }
    let dir = pkg_config_libdir(package).unwrap_or_else(|why| {
        panic!("{package}: set ZKPIPE_LIB_DIR to the folder holding lib{lib}.so, or install {package}.pc for pkg-config ({why})")
    });
    match link_by_installed_path(lib, Path::new(&dir)) {
        Ok(stub_dir) => println!("cargo:rustc-link-search=native={}", stub_dir.display()),
        Err(why) => {
            // Still linkable, but programs will need LD_LIBRARY_PATH: say so in cargo's output.
            println!("cargo:warning=lib{lib}.so linked by name ({why}); programs will need LD_LIBRARY_PATH={dir}");
            println!("cargo:rustc-link-search=native={dir}");
        }
    }
    println!("cargo:rustc-link-lib=dylib={lib}");
    println!("cargo:rustc-link-arg=-Wl,-rpath,{dir}");
    dir
}

fn run(program: &str, args: &[&str]) -> Result<String, String> {
    let out = Command::new(program).args(args).output().map_err(|e| format!("cannot run {program}: {e}"))?;
    if !out.status.success() {
        return Err(format!("{program} {}: {}", args.join(" "), String::from_utf8_lossy(&out.stderr).trim()));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

fn pkg_config_libdir(package: &str) -> Result<String, String> {
    let pkg_config = env::var("PKG_CONFIG").unwrap_or_else(|_| "pkg-config".into());
    let dir = run(&pkg_config, &["--variable=libdir", package])?.trim().to_string();
    if dir.is_empty() {
        return Err(format!("pkg-config {package} has no libdir"));
    }
    Ok(dir)
}

/// Makes OUT_DIR/lib<lib>.so, the stub described at the top, and returns OUT_DIR.
fn link_by_installed_path(lib: &str, dir: &Path) -> Result<PathBuf, String> {
    let real = dir.canonicalize().map_err(|e| format!("{}: {e}", dir.display()))?.join(format!("lib{lib}.so"));
    let real_str = real.to_str().ok_or("the library's path is not UTF-8")?;
    let soname = run("objdump", &["-p", real_str])?
        .lines()
        .find_map(|l| l.trim().strip_prefix("SONAME").map(|s| s.trim().to_string()))
        .ok_or_else(|| format!("{real_str} has no SONAME"))?;
    let installed = real.with_file_name(&soname);
    if !installed.exists() {
        return Err(format!("{} (its SONAME) does not exist", installed.display()));
    }
    // The library's exported functions (the C API; none of its exports is data).
    let mut stub = String::from("/* Made by the zkpipe crates' build script (linking/link.rs): never run. */\n");
    for line in run("nm", &["-D", "--defined-only", real_str])?.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        match fields.as_slice() {
            [_, "T", name] => stub += &format!("void {name}(void) {{}}\n"),
            [_, kind, name] if !kind.eq_ignore_ascii_case("a") => {
                return Err(format!("{real_str} exports {name} of kind {kind}, which the stub cannot stand for"))
            }
            _ => {}
        }
    }
    let out = PathBuf::from(env::var("OUT_DIR").map_err(|_| "OUT_DIR is not set")?);
    let source = out.join(format!("lib{lib}_stub.c"));
    std::fs::write(&source, stub).map_err(|e| format!("{}: {e}", source.display()))?;
    let target = out.join(format!("lib{lib}.so"));
    let cc = env::var("CC").unwrap_or_else(|_| "cc".into());
    run(
        &cc,
        &[
            "-shared",
            "-fPIC",
            "-o",
            target.to_str().ok_or("OUT_DIR is not UTF-8")?,
            source.to_str().ok_or("OUT_DIR is not UTF-8")?,
            &format!("-Wl,-soname,{}", installed.to_str().ok_or("the library's path is not UTF-8")?),
        ],
    )?;
    println!("cargo:rerun-if-changed={real_str}");
    Ok(out)
}
