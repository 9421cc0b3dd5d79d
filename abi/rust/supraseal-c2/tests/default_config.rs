//! Without ZKPIPE_SUPRASEAL_CONFIG (one test, in a process of its own): the crate asks for
//! every GPU (zkpipe's cuda prover) and, where the cuda plugin is not on the plugin path or
//! sees no GPU, proves on the cpu prover (saying so once on stderr) — and the proof is still
//! bellperson's.
mod common;
use common::*;
use supraseal_c2::{generate_groth16_proofs, zkpipe_prover, CONFIG_ENV, SRS};

#[test]
fn without_a_config_the_cuda_prover_or_else_the_cpu_prover() {
    std::env::remove_var(CONFIG_ENV);
    let prover = zkpipe_prover().unwrap();
    let plugin_dirs = std::env::var("ZKPIPE_PLUGIN_PATH").unwrap_or_default();
    let cuda_plugin = plugin_dirs.split(':').any(|d| !d.is_empty() && std::path::Path::new(d).join("libzkp_prover_cuda.so").exists());
    if cuda_plugin {
        assert!(prover == "cuda" || prover == "cpu", "{prover}");
    } else {
        assert_eq!(prover, "cpu", "no cuda plugin on ZKPIPE_PLUGIN_PATH ({plugin_dirs})");
    }
    assert_eq!(zkpipe_prover().unwrap(), prover, "chosen once");

    let Some(v) = vectors("without_a_config_the_cuda_prover_or_else_the_cpu_prover") else { return };
    let srs = SRS::try_new(v.params.clone(), false).unwrap();
    let mut proofs = proof_room(1);
    generate_groth16_proofs(&[v.circuit.assignment()], &[fr_to_montgomery(v.r)], &[fr_to_montgomery(v.s)], &mut proofs, &srs);
    assert_eq!(proofs[0].to_zkpipe().to_bellperson_bytes().unwrap().to_vec(), v.proof_bellperson, "on the {prover} prover");
}
