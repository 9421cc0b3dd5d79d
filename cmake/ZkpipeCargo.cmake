# Finds cargo for the Rust bindings and samples: CARGO is the program, and
# ZKPIPE_CARGO_MISSING is empty when it can build them, else the reason it cannot (the
# crates need Rust 1.87: c"" literals, offset_of!, usize::is_multiple_of, Cargo.lock v4;
# Debian 12's own cargo is 1.63, so scripts/install-deps.sh's rustup toolchain is needed).
set(ZKPIPE_RUST_MIN_VERSION 1.87)
find_program(CARGO cargo HINTS $ENV{HOME}/.cargo/bin)
set(ZKPIPE_CARGO_MISSING "")
if(NOT CARGO)
  set(ZKPIPE_CARGO_MISSING "cargo not found (scripts/install-deps.sh installs it)")
else()
  execute_process(COMMAND ${CARGO} --version OUTPUT_VARIABLE _cargo_version ERROR_QUIET)
  string(REGEX MATCH "[0-9]+\\.[0-9]+\\.[0-9]+" _cargo_version "${_cargo_version}")
  if(_cargo_version VERSION_LESS ZKPIPE_RUST_MIN_VERSION)
    set(ZKPIPE_CARGO_MISSING "cargo ${_cargo_version} at ${CARGO} is older than ${ZKPIPE_RUST_MIN_VERSION}, which the Rust crates need (rustup)")
  endif()
endif()
