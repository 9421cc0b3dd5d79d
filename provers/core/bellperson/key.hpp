// Key: a bellperson parameter file made ready to prove with (BLS12-381 only: bellperson's
// curve). The verifying points decoded and subgroup-checked, e(α, β) precomputed, the five
// queries decoded once into MSM bases (params.hpp's decode_query, on the pool, with the
// operator's PointCheck), and the domain of m = h + 1 points with bellperson's roots
// (domain.hpp). The queries are streamed from the file as they are decoded: the bases are the
// one copy.
//
// Shapes (params.rs, generator.rs): ic holds the inputs (input 0 the constant one), l the aux,
// h m − 1 points; a the inputs and the aux in A; b_g1 / b_g2 the inputs and aux in B.
//
// Read-only after construction: proofs on any number of threads may share one key.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/bellperson/domain.hpp"
#include "core/bellperson/params.hpp"
#include "core/ec/encoding.hpp"
#include "core/formats/error.hpp"
#include "core/msm/msm.hpp"
#include "core/pairing/bls12_381.hpp"
#include "core/pairing/verify.hpp"
#include "core/util/thread_pool.hpp"
#include "core/util/uninitialized_allocator.hpp"

namespace zkp::bellperson {

class Key {
 public:
  using E = bls12_381::Engine;
  using Engine = E;
  using G1 = E::G1;
  using G2 = E::G2;
  using Fr = E::Fr;

  // Which queries the key decodes into host memory: all of them (the cpu prover; a device
  // prover that keeps host copies), b_g2 alone (a device prover whose G2 MSM runs on the host),
  // or none. The others stay in the file, for a device prover to stream into the device
  // (queries_file()).
  enum class HostQueries { all, b2_only, none };

  // Decodes every query.
  Key(const ParamsFile& file, PointCheck check, ThreadPool& pool) : name_(file.name()), points_(decode_verifying_points(file)) {
    init(file, check, pool, HostQueries::all);
  }
  // Decodes the queries `host` says and keeps `file` for the others until drop_host_queries.
  Key(std::shared_ptr<const ParamsFile> file, PointCheck check, ThreadPool& pool, HostQueries host)
      : name_(file->name()), points_(decode_verifying_points(*file)), check_(check) {
    init(*file, check, pool, host);
    if (host != HostQueries::all) file_ = std::move(file);
  }

 private:
  void init(const ParamsFile& file, PointCheck check, ThreadPool& pool, HostQueries host) {
    const ParamsLayout& l = file.layout();
    if (host == HostQueries::all) {
      a_ = decode<G1>(file, l.a, l.a_count, check, pool, "a");
      b1_ = decode<G1>(file, l.b_g1, l.b_g1_count, check, pool, "b_g1");
      l_ = decode<G1>(file, l.l, l.l_count, check, pool, "l");
      h_ = decode<G1>(file, l.h, l.h_count, check, pool, "h");
    }
    if (host != HostQueries::none) b2_ = decode<G2>(file, l.b_g2, l.b_g2_count, check, pool, "b_g2");
    host_ = host;
    a_size_ = l.a_count;
    b_size_ = l.b_g1_count;
    l_size_ = l.l_count;
    h_size_ = l.h_count;
    std::size_t log_m = 0;
    while ((std::uint64_t{1} << log_m) < h_size_ + 1) ++log_m;
    if ((std::uint64_t{1} << log_m) != h_size_ + 1) format_fail(name_, "h holds ", h_size_, " points, not 2^k - 1");
    if (log_m > Fr::two_adicity()) format_fail(name_, "a domain of 2^", log_m, " exceeds BLS12-381's two-adicity");
    domain_ = std::make_unique<NttDomain<Fr>>(make_domain(log_m, &pool));
    if (a_size_ < num_inputs()) format_fail(name_, "a holds ", a_size_, " points, fewer than the ", num_inputs(), " inputs");
    if (a_size_ > n_vars() || b_size_ > n_vars()) format_fail(name_, "a or b_g1 holds more points than variables");
    if (b_size_ != l.b_g2_count) format_fail(name_, "b_g1 holds ", b_size_, " points, b_g2 ", l.b_g2_count);
    const groth16::VerifyResult prepared = groth16::prepare<E>(
        groth16::VerifyingKey<E>{points_.alpha_g1, points_.beta_g2, points_.gamma_g2, points_.delta_g2, points_.ic},
        verifying_key_);
    if (!prepared.ok()) format_fail(name_, "verifying key: ", prepared.message());
  }

 public:

  const std::string& name() const { return name_; }
  std::uint64_t num_inputs() const { return points_.ic.size(); }  // the constant one included
  std::uint64_t num_aux() const { return l_size_; }
  std::uint64_t n_vars() const { return num_inputs() + num_aux(); }
  std::uint32_t n_public() const { return static_cast<std::uint32_t>(num_inputs() - 1); }
  std::uint64_t domain_size() const { return domain_->size(); }
  const NttDomain<Fr>& domain() const { return *domain_; }
  // Aux variables the a query holds (its inputs are all of them), and variables in b.
  std::uint64_t a_aux_count() const { return a_size_ - num_inputs(); }
  std::uint64_t b_count() const { return b_size_; }
  // The queries' lengths, which stay when their host copies are dropped.
  std::uint64_t a_size() const { return a_size_; }
  std::uint64_t h_size() const { return h_size_; }

  const Affine<G1>& alpha1() const { return points_.alpha_g1; }
  const Affine<G1>& beta1() const { return points_.beta_g1; }
  const Affine<G1>& delta1() const { return points_.delta_g1; }
  const Affine<G2>& beta2() const { return points_.beta_g2; }
  const Affine<G2>& gamma2() const { return points_.gamma_g2; }
  const Affine<G2>& delta2() const { return points_.delta_g2; }
  const std::vector<Affine<G1>>& ic() const { return points_.ic; }
  const groth16::PreparedVerifyingKey<E>& verifying_key() const { return verifying_key_; }

  // The queries' host copies: empty once dropped (below).
  std::span<const msm::Base<G1>> a() const { return a_; }
  std::span<const msm::Base<G1>> b1() const { return b1_; }
  std::span<const msm::Base<G2>> b2() const { return b2_; }
  std::span<const msm::Base<G1>> l() const { return l_; }
  // l under the name of the zkey section it stands in for (the aux terms of πC), so code that
  // places a key's five queries on a device reads either kind of key alike.
  std::span<const msm::Base<G1>> c() const { return l_; }
  std::span<const msm::Base<G1>> h() const { return h_; }

  // Frees the host copies of the queries, for a prover that has them where it proves (the
  // cuda prover after key_load's uploads: its option host_bases). keep_b2: b_g2 stays, for a
  // G2 MSM on the host. The lengths and everything else stay; not thread-safe against readers
  // of the queries (the caller excludes them). 44 GiB at a 2^27 PoRep partition.
  // The file of a key made with HostQueries other than all goes too.
  void drop_host_queries(bool keep_b2) {
    Query<G1>().swap(a_);
    Query<G1>().swap(b1_);
    Query<G1>().swap(l_);
    Query<G1>().swap(h_);
    if (!keep_b2) Query<G2>().swap(b2_);
    file_.reset();
    dropped_ = true;
  }
  bool has_host_queries() const { return !dropped_ && host_ == HostQueries::all; }
  // The file the queries not in host memory are streamed from, and the check they get; null
  // when every query was decoded, and once drop_host_queries has run.
  const ParamsFile* queries_file() const { return file_.get(); }
  PointCheck query_check() const { return check_; }

  // Heap bytes: the decoded queries (those not dropped) and the domain tables.
  std::size_t resident_bytes() const {
    return (a_.size() + b1_.size() + l_.size() + h_.size()) * sizeof(msm::Base<G1>) + b2_.size() * sizeof(msm::Base<G2>) +
           domain_->memory_bytes();
  }

 private:
  // A query's decoded bases: left unwritten by the allocation (decode writes every one, on the
  // pool), where a value-initialized vector would zero 44 GiB on one thread first.
  template <CurveParams C>
  using Query = std::vector<msm::Base<C>, UninitializedAllocator<msm::Base<C>>>;

  template <CurveParams C>
  static Query<C> decode(const ParamsFile& file, const Extent& where, std::uint64_t count, PointCheck check,
                         ThreadPool& pool, const char* what) {
    Query<C> out(count);
    file.decode<C>(where, out, check, pool, what);
    return out;
  }

  std::string name_;
  VerifyingPoints points_;
  Query<G1> a_, b1_, l_, h_;
  Query<G2> b2_;
  HostQueries host_ = HostQueries::all;
  std::shared_ptr<const ParamsFile> file_;  // with host_ other than all, until drop_host_queries
  PointCheck check_ = PointCheck::on_curve;
  std::uint64_t a_size_ = 0, b_size_ = 0, l_size_ = 0, h_size_ = 0;
  bool dropped_ = false;
  std::unique_ptr<NttDomain<Fr>> domain_;
  groth16::PreparedVerifyingKey<E> verifying_key_;
};

}  // namespace zkp::bellperson
