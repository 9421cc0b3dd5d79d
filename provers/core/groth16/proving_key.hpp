// ProvingKey<E>: a parsed zkey made ready to prove with, for the pairing engine E
// (bn254::Engine, bls12_381::Engine).
//
// Holds the Zkey (and with it the mapped file), the NTT domain and coefficient index of its
// size, the header points decoded (always subgroup-checked: there are six), and the MSM
// bases of sections 5–9 as msm::Base spans. Bases are used in place in the mapped file when
// the section is 8-byte aligned; otherwise (the usual case: snarkjs puts sections at any
// offset) they are copied once into aligned memory, and the file buffer's pages under a copied
// section are then given back (Zkey::discard), so the key is resident once, not twice:
// zkey().points() sections a, b1, b2, c and h must not be read through the Zkey afterwards.
//
// Read-only after construction: proofs on any number of threads may share one key.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/ec/encoding.hpp"
#include "core/formats/error.hpp"
#include "core/formats/zkey.hpp"
#include "core/groth16/coefficient_rows.hpp"
#include "core/msm/msm.hpp"
#include "core/ntt/domain.hpp"
#include "core/pairing/verify.hpp"
#include "core/util/thread_pool.hpp"
#include "core/util/uninitialized_allocator.hpp"

namespace zkp::groth16 {

// The zkpipe curve id of a pairing engine.
template <PairingEngine E>
constexpr Curve curve_of() {
  if constexpr (std::same_as<typename E::G1, bn254::G1>) return Curve::bn254;
  else return Curve::bls12_381;
}

template <CurveParams C>
class BaseSection {
 public:
  BaseSection() = default;
  BaseSection(const BaseSection&) = delete;
  BaseSection& operator=(const BaseSection&) = delete;
  BaseSection(BaseSection&&) noexcept = default;  // a moved vector keeps its buffer: view_ stays valid
  BaseSection& operator=(BaseSection&&) noexcept = default;
  // With a pool the copy is made on it: a 2^24 BLS12-381 section is 1.6 GB of memcpy and page
  // faults, which one thread took about half a second on. `give_back`, if set, is called with
  // each block of `bytes` once it is copied (blocks of kGiveBackBases, from any of the pool's
  // threads), for the owner of the bytes to release them as the copy goes: the key is then
  // never resident twice, where releasing each section after its whole copy held the key plus
  // every copied section at once (the peak of a whole `zkpipe prove` at 2^18 and 2^20: 67 and
  // 268 MB over the rest, BN254; docs/PERF.md, second pass).
  explicit BaseSection(ByteView bytes, ThreadPool* pool = nullptr,
                       const std::function<void(ByteView)>& give_back = {}) {
    const auto* p = reinterpret_cast<const std::uint8_t*>(bytes.data());
    const std::size_t n = bytes.size() / sizeof(msm::Base<C>);
    if (reinterpret_cast<std::uintptr_t>(p) % alignof(msm::Base<C>) == 0) {
      view_ = msm::bases_from_mont_bytes<C>({p, bytes.size()});
      return;
    }
    copy_.resize(n);  // unwritten: the copy below fills every byte
    const auto copy = [&](std::size_t begin, std::size_t end) {
      for (std::size_t b = begin; b < end; b += kGiveBackBases) {
        const std::size_t e = std::min(end, b + kGiveBackBases);
        const std::size_t offset = b * sizeof(msm::Base<C>), size = (e - b) * sizeof(msm::Base<C>);
        std::memcpy(static_cast<void*>(copy_.data() + b), p + offset, size);
        if (give_back) give_back(bytes.subspan(offset, size));
      }
    };
    if (pool != nullptr) pool->parallel_for(n, std::size_t{1} << 14, copy);
    else copy(0, n);
    view_ = copy_;
  }
  // 1 MiB of BN254 G1 bases: a block's pages go back in one madvise, and the key is resident
  // twice for at most a block per thread.
  static constexpr std::size_t kGiveBackBases = std::size_t{1} << 14;
  std::span<const msm::Base<C>> bases() const { return view_; }
  std::size_t copied_bytes() const { return copy_.size() * sizeof(msm::Base<C>); }

 private:
  std::vector<msm::Base<C>, UninitializedAllocator<msm::Base<C>>> copy_;
  std::span<const msm::Base<C>> view_;
};

template <PairingEngine E>
class ProvingKey {
 public:
  using Engine = E;
  using G1 = typename E::G1;
  using G2 = typename E::G2;
  using Fr = typename E::Fr;

  // Throws FormatError if the key is for another curve or a header point is invalid. Computes
  // e(α1, β2) once for verify(). With a pool the domain's twiddle table is built on it (n field
  // elements: ~0.4 s on one thread at 2^24, a fifth of a device key_load's host part).
  explicit ProvingKey(Zkey zkey, ThreadPool* pool = nullptr)
      : zkey_(std::move(zkey)),
        domain_(log2_exact(zkey_.header().domain_size), pool),
        rows_(zkey_.coefficients(), zkey_.header().domain_size, pool) {
    const ZkeyHeader& h = zkey_.header();
    if (h.curve != curve_of<E>()) {
      format_fail(zkey_.name(), "the key is for ", curve_info(h.curve).name, ", not ",
                  curve_info(curve_of<E>()).name);
    }
    alpha1_ = header_point<G1>(h.alpha1, "alpha1");
    beta1_ = header_point<G1>(h.beta1, "beta1");
    delta1_ = header_point<G1>(h.delta1, "delta1");
    beta2_ = header_point<G2>(h.beta2, "beta2");
    gamma2_ = header_point<G2>(h.gamma2, "gamma2");
    delta2_ = header_point<G2>(h.delta2, "delta2");
    const ZkeyPoints& p = zkey_.points();
    ic_.resize(h.n_public + 1);
    for (std::size_t i = 0; i < ic_.size(); ++i) {
      ic_[i] = header_point<G1>(p.ic.subspan(i * kAffineBytes<G1>, kAffineBytes<G1>), "IC");
    }
    // The copies are what the MSMs read; the originals would only hold those sections twice
    // (snarkjs's BN254 2^16 chain key: B1 and C unaligned, 8 MB of the proof's peak RSS). Each
    // block goes back as it is copied; the whole sections once more after, for the pages a
    // block shares with the next (discard gives back only pages wholly inside its range).
    const auto give_back = [this](ByteView part) { zkey_.discard(part); };
    a_ = BaseSection<G1>(p.a, pool, give_back);
    b1_ = BaseSection<G1>(p.b1, pool, give_back);
    b2_ = BaseSection<G2>(p.b2, pool, give_back);
    c_ = BaseSection<G1>(p.c, pool, give_back);
    h_ = BaseSection<G1>(p.h, pool, give_back);
    if (a_.copied_bytes() != 0) zkey_.discard(p.a);
    if (b1_.copied_bytes() != 0) zkey_.discard(p.b1);
    if (b2_.copied_bytes() != 0) zkey_.discard(p.b2);
    if (c_.copied_bytes() != 0) zkey_.discard(p.c);
    if (h_.copied_bytes() != 0) zkey_.discard(p.h);
    const VerifyResult prepared = prepare<E>(VerifyingKey<E>{alpha1_, beta2_, gamma2_, delta2_, ic_}, verifying_key_);
    if (!prepared.ok()) format_fail(zkey_.name(), "verifying key: ", prepared.message());
  }

  const Zkey& zkey() const { return zkey_; }
  const std::string& name() const { return zkey_.name(); }
  std::uint32_t n_vars() const { return zkey_.header().n_vars; }
  std::uint32_t n_public() const { return zkey_.header().n_public; }
  std::uint32_t domain_size() const { return zkey_.header().domain_size; }
  const NttDomain<Fr>& domain() const { return domain_; }
  const CoefficientRows& rows() const { return rows_; }

  const Affine<G1>& alpha1() const { return alpha1_; }
  const Affine<G1>& beta1() const { return beta1_; }
  const Affine<G1>& delta1() const { return delta1_; }
  const Affine<G2>& beta2() const { return beta2_; }
  const Affine<G2>& gamma2() const { return gamma2_; }
  const Affine<G2>& delta2() const { return delta2_; }
  const std::vector<Affine<G1>>& ic() const { return ic_; }
  // The key's verifying half, checked, with e(α1, β2) precomputed.
  const PreparedVerifyingKey<E>& verifying_key() const { return verifying_key_; }

  std::span<const msm::Base<G1>> a() const { return a_.bases(); }
  std::span<const msm::Base<G1>> b1() const { return b1_.bases(); }
  std::span<const msm::Base<G2>> b2() const { return b2_.bases(); }
  std::span<const msm::Base<G1>> c() const { return c_.bases(); }
  std::span<const msm::Base<G1>> h() const { return h_.bases(); }

  // Heap bytes beyond the mapped file: aligned base copies, the domain tables, the row index.
  std::size_t resident_bytes() const {
    return a_.copied_bytes() + b1_.copied_bytes() + b2_.copied_bytes() + c_.copied_bytes() + h_.copied_bytes() +
           rows_.memory_bytes() + domain_.memory_bytes();
  }

 private:
  static std::size_t log2_exact(std::uint32_t n) {
    std::size_t k = 0;
    while ((std::uint64_t{1} << k) < n) ++k;
    return k;
  }

  template <CurveParams C>
  Affine<C> header_point(ByteView bytes, const char* what) const {
    Affine<C> out;
    const std::span<const std::uint8_t, kAffineBytes<C>> b(reinterpret_cast<const std::uint8_t*>(bytes.data()),
                                                           kAffineBytes<C>);
    const PointStatus s = decode_affine_mont<C>(b, out, PointCheck::subgroup);
    if (s != PointStatus::ok) format_fail(zkey_.name(), what, ": ", to_string(s));
    return out;
  }

  Zkey zkey_;
  NttDomain<Fr> domain_;
  CoefficientRows rows_;
  Affine<G1> alpha1_, beta1_, delta1_;
  Affine<G2> beta2_, gamma2_, delta2_;
  std::vector<Affine<G1>> ic_;
  BaseSection<G1> a_, b1_, c_, h_;
  BaseSection<G2> b2_;
  PreparedVerifyingKey<E> verifying_key_;
};

}  // namespace zkp::groth16
