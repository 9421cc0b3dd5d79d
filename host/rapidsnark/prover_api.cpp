// rapidsnark's prover functions (include/prover.h) over Groth16Prover. Each one checks its
// arguments with rapidsnark's messages, and guard() turns every exception into a status and a
// message: nothing is thrown across the C boundary.
#include <prover.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>

#include "core/formats/mapped_file.hpp"
#include "core/formats/zkey.hpp"
#include "error_message.hpp"
#include "groth16_prover.hpp"
#include "services/rapidsnark_json.hpp"

namespace {

using zkp::ByteView;
using zkp::rapidsnark::Failure;
using zkp::rapidsnark::Groth16Prover;
using zkp::rapidsnark::guard;

ByteView bytes_of(const void* data, unsigned long long size) {
  return {static_cast<const std::byte*>(data), static_cast<std::size_t>(size)};
}

// rapidsnark reads only the header to size the public signals; read_zkey also checks the
// sections against it, so a truncated key fails here rather than at the first proof.
unsigned long long public_size_of(zkp::ByteSource source) {
  const zkp::Zkey key = zkp::read_zkey(std::move(source));
  return zkp::rapidsnark::public_capacity(key.header().n_public);
}

// The largest proof of any curve librapidsnark proves.
unsigned long long largest_proof() {
  return std::max(zkp::rapidsnark::proof_capacity(zkp::Curve::bn254),
                  zkp::rapidsnark::proof_capacity(zkp::Curve::bls12_381));
}

// Copies `text` and its NUL into a buffer of *size bytes, and sets *size to the bytes written
// without the NUL.
void deliver(const std::string& text, char* buffer, unsigned long long* size) {
  std::memcpy(buffer, text.data(), text.size());
  buffer[text.size()] = '\0';
  *size = text.size();
}

}  // namespace

extern "C" {

ZKP_RAPIDSNARK_EXPORT int groth16_public_size_for_zkey_buf(const void* zkey_buffer, unsigned long long zkey_size,
                                     unsigned long long* public_size, char* error_msg,
                                     unsigned long long error_msg_maxsize) {
  return guard(PROVER_ERROR, error_msg, error_msg_maxsize, [&] {
    if (zkey_buffer == nullptr) throw Failure(PROVER_ERROR, "Null zkey buffer");
    if (public_size == nullptr) throw Failure(PROVER_ERROR, "Null public size");
    *public_size = public_size_of(zkp::ByteSource::borrow(bytes_of(zkey_buffer, zkey_size), "zkey"));
    return PROVER_OK;
  });
}

ZKP_RAPIDSNARK_EXPORT int groth16_public_size_for_zkey_file(const char* zkey_fname, unsigned long long* public_size, char* error_msg,
                                      unsigned long long error_msg_maxsize) {
  return guard(PROVER_ERROR, error_msg, error_msg_maxsize, [&] {
    if (zkey_fname == nullptr) throw Failure(PROVER_ERROR, "Null zkey file name");
    if (public_size == nullptr) throw Failure(PROVER_ERROR, "Null public size");
    *public_size = public_size_of(zkp::ByteSource::from_file(zkey_fname));
    return PROVER_OK;
  });
}

ZKP_RAPIDSNARK_EXPORT void groth16_proof_size(unsigned long long* proof_size) {
  if (proof_size != nullptr) *proof_size = largest_proof();
}

ZKP_RAPIDSNARK_EXPORT int groth16_prover_create(void** prover_object, const void* zkey_buffer, unsigned long long zkey_size,
                          char* error_msg, unsigned long long error_msg_maxsize) {
  return guard(PROVER_ERROR, error_msg, error_msg_maxsize, [&] {
    if (prover_object == nullptr) throw Failure(PROVER_ERROR, "Null prover object");
    if (zkey_buffer == nullptr) throw Failure(PROVER_ERROR, "Null zkey buffer");
    *prover_object = Groth16Prover::from_bytes(bytes_of(zkey_buffer, zkey_size)).release();
    return PROVER_OK;
  });
}

ZKP_RAPIDSNARK_EXPORT int groth16_prover_create_zkey_file(void** prover_object, const char* zkey_file_path, char* error_msg,
                                    unsigned long long error_msg_maxsize) {
  return guard(PROVER_ERROR, error_msg, error_msg_maxsize, [&] {
    if (prover_object == nullptr) throw Failure(PROVER_ERROR, "Null prover object");
    if (zkey_file_path == nullptr) throw Failure(PROVER_ERROR, "Null zkey file path");
    *prover_object = Groth16Prover::from_file(zkey_file_path).release();
    return PROVER_OK;
  });
}

ZKP_RAPIDSNARK_EXPORT int groth16_prover_prove(void* prover_object, const void* wtns_buffer, unsigned long long wtns_size,
                         char* proof_buffer, unsigned long long* proof_size, char* public_buffer,
                         unsigned long long* public_size, char* error_msg, unsigned long long error_msg_maxsize) {
  return guard(PROVER_ERROR, error_msg, error_msg_maxsize, [&] {
    if (prover_object == nullptr) throw Failure(PROVER_ERROR, "Null prover object");
    if (wtns_buffer == nullptr) throw Failure(PROVER_ERROR, "Null witness buffer");
    if (proof_buffer == nullptr) throw Failure(PROVER_ERROR, "Null proof buffer");
    if (proof_size == nullptr) throw Failure(PROVER_ERROR, "Null proof size");
    if (public_buffer == nullptr) throw Failure(PROVER_ERROR, "Null public buffer");
    if (public_size == nullptr) throw Failure(PROVER_ERROR, "Null public size");
    const auto& prover = *static_cast<const Groth16Prover*>(prover_object);
    const zkp::rapidsnark::ProofText out = prover.prove(bytes_of(wtns_buffer, wtns_size));

    const unsigned long long proof_needed = out.proof.size() + 1;
    const unsigned long long public_needed = out.public_signals.size() + 1;
    if (*proof_size < proof_needed || *public_size < public_needed) {
      // Enough for any proof of this key, so that the next call, a fresh proof, fits too.
      const unsigned long long proof_enough = std::max<unsigned long long>(proof_needed, zkp::rapidsnark::proof_capacity(prover.curve()));
      const std::string message = "Buffer insufficient for generated proof. Required - proof: " +
                                  std::to_string(proof_enough) + " (provided: " + std::to_string(*proof_size) +
                                  "), public: " + std::to_string(public_needed) +
                                  " (provided: " + std::to_string(*public_size) + ")";
      *proof_size = proof_enough;
      *public_size = public_needed;
      throw Failure(PROVER_ERROR_SHORT_BUFFER, message);
    }
    deliver(out.proof, proof_buffer, proof_size);
    deliver(out.public_signals, public_buffer, public_size);
    return PROVER_OK;
  });
}

ZKP_RAPIDSNARK_EXPORT void groth16_prover_destroy(void* prover_object) {
  try {
    delete static_cast<Groth16Prover*>(prover_object);
  } catch (...) {
    // ~Groth16Prover drains the host, which reports its own failures in its log.
  }
}

ZKP_RAPIDSNARK_EXPORT int groth16_prover(const void* zkey_buffer, unsigned long long zkey_size, const void* wtns_buffer,
                   unsigned long long wtns_size, char* proof_buffer, unsigned long long* proof_size,
                   char* public_buffer, unsigned long long* public_size, char* error_msg,
                   unsigned long long error_msg_maxsize) {
  void* prover = nullptr;
  const int created = groth16_prover_create(&prover, zkey_buffer, zkey_size, error_msg, error_msg_maxsize);
  if (created != PROVER_OK) return created;
  const int proved = groth16_prover_prove(prover, wtns_buffer, wtns_size, proof_buffer, proof_size, public_buffer,
                                          public_size, error_msg, error_msg_maxsize);
  groth16_prover_destroy(prover);
  return proved;
}

ZKP_RAPIDSNARK_EXPORT int groth16_prover_zkey_file(const char* zkey_file_path, const void* wtns_buffer, unsigned long long wtns_size,
                             char* proof_buffer, unsigned long long* proof_size, char* public_buffer,
                             unsigned long long* public_size, char* error_msg, unsigned long long error_msg_maxsize) {
  void* prover = nullptr;
  const int created = groth16_prover_create_zkey_file(&prover, zkey_file_path, error_msg, error_msg_maxsize);
  if (created != PROVER_OK) return created;
  const int proved = groth16_prover_prove(prover, wtns_buffer, wtns_size, proof_buffer, proof_size, public_buffer,
                                          public_size, error_msg, error_msg_maxsize);
  groth16_prover_destroy(prover);
  return proved;
}

}  // extern "C"
