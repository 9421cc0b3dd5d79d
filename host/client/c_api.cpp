// The C API of zkp_client.h over Connection (connection.hpp): every export runs inside
// sdk::guard, so gRPC's and the standard library's exceptions become statuses here.
#include "call_status.hpp"
#include "connection.hpp"
#include "result.hpp"
#include "services/bearer_token.hpp"
#include "services/names.hpp"
#include "submit_job.hpp"

#include <cstddef>
#include <zkpipe/sdk/error.hpp>
#include <zkpipe/zkp_client.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

struct zkp_client_t {
  explicit zkp_client_t(zkp::client::ConnectionSettings settings) : connection(std::move(settings)) {}
  zkp::client::Connection connection;
};

namespace {

namespace v1 = zkpipe::v1;
using zkp::sdk::Error;

constexpr std::chrono::milliseconds kDefaultConnectTimeout{10000};

zkp::client::Connection& connection_of(zkp_client_t* client) {
  if (client == nullptr) throw Error(ZKP_ERR_INVALID_ARGUMENT, "client is NULL");
  return client->connection;
}

template <class T>
T& out_param(T* p, const char* name) {
  if (p == nullptr) throw Error(ZKP_ERR_INVALID_ARGUMENT, std::string(name) + " is NULL");
  return *p;
}

std::string optional_string(const char* s) { return s == nullptr ? std::string() : std::string(s); }

zkp::client::ConnectionSettings settings_of(const zkp_client_options_t& o) {
  zkp::client::ConnectionSettings s;
  s.target = zkp::services::target_of(optional_string(o.address));
  const std::string token = optional_string(o.token);
  const std::string token_file = optional_string(o.token_file);
  if (!token.empty() && !token_file.empty()) {
    throw Error(ZKP_ERR_INVALID_ARGUMENT, "zkp_client_options_t: token and token_file are both set: one or the other");
  }
  if (!token.empty()) {
    if (const std::optional<std::string> problem = zkp::services::bearer_token_problem(token)) {
      throw Error(ZKP_ERR_INVALID_ARGUMENT, "zkp_client_options_t.token cannot be sent: " + *problem);
    }
  }
  s.token = token_file.empty() ? token : zkp::services::read_token_file(token_file, "zkp_client_options_t.token_file");
  s.tls_ca_file = optional_string(o.tls_ca_file);
  s.tls_server_name = optional_string(o.tls_server_name);
  if (!s.tls_ca_file.empty() && s.target.rfind("unix:", 0) == 0) {
    throw Error(ZKP_ERR_INVALID_ARGUMENT, "zkp_client_options_t.tls_ca_file is set for the unix socket " + s.target +
                                              " (a unix socket has no TLS)");
  }
  if (!s.tls_server_name.empty() && s.tls_ca_file.empty()) {
    throw Error(ZKP_ERR_INVALID_ARGUMENT, "zkp_client_options_t.tls_server_name needs tls_ca_file");
  }
  if (o.call_timeout_ms != 0) s.call_timeout = std::chrono::milliseconds(o.call_timeout_ms);
  return s;
}

// The first release's zkp_client_key_t ended at reserved (device_bytes came after it): a caller
// built against it passes that struct_size, and its arrays have that stride.
constexpr size_t kFirstReleaseKeySize = offsetof(zkp_client_key_t, device_bytes);

void fill_key(const v1::KeyInfo& k, bool already_loaded, zkp_client_key_t* out) {
  zkp::sdk::require_struct(out, "zkp_client_key_t", kFirstReleaseKeySize);
  zkp_client_key_t key{};
  key.key_id = k.key_id();
  key.format = k.format() == v1::KEY_FORMAT_BELLPERSON ? ZKP_KEY_FORMAT_BELLPERSON : ZKP_KEY_FORMAT_ZKEY;
  key.curve = zkp::services::curve_from_name(k.curve()).value_or(ZKP_CURVE_UNKNOWN);
  key.n_vars = k.n_vars();
  key.n_public = k.n_public();
  key.domain_size = k.domain_size();
  key.proof_size = k.proof_size();
  key.synthesis_bytes = k.synthesis_bytes();
  key.loaded_unix_ms = k.loaded_unix_ms();
  key.load_ns = k.load_ns();
  key.jobs_submitted = k.jobs_submitted();
  key.already_loaded = already_loaded ? 1u : 0u;
  key.device_bytes = k.device_bytes();
  zkp::sdk::write_covered(out, key);
}

zkp::client::WitnessJob witness_job_of(const zkp_client_job_t* job) {
  // flags came after the first release's layout, which ended at priority.
  zkp::sdk::require_struct(job, "zkp_client_job_t", offsetof(zkp_client_job_t, flags));
  if (job->witness_count == 0) throw Error(ZKP_ERR_INVALID_ARGUMENT, "zkp_client_job_t.witness_count is 0: a job needs a partition");
  if (job->witnesses == nullptr || job->witness_sizes == nullptr) {
    throw Error(ZKP_ERR_INVALID_ARGUMENT, "zkp_client_job_t.witnesses or .witness_sizes is NULL");
  }
  zkp::client::WitnessJob r;
  r.header.set_key_id(job->key_id);
  r.header.set_gpu_index(job->gpu_index);
  r.header.set_priority(job->priority);
  if (zkp::sdk::covers(job->header, offsetof(zkp_client_job_t, flags) + sizeof job->flags)) {
    if ((job->flags & ~ZKP_CLIENT_JOB_INPUTS) != 0) {
      throw Error(ZKP_ERR_INVALID_ARGUMENT, "zkp_client_job_t.flags has unknown bits " + std::to_string(job->flags));
    }
    r.header.set_inputs((job->flags & ZKP_CLIENT_JOB_INPUTS) != 0);
  }
  for (size_t i = 0; i < job->witness_count; ++i) {
    if (job->witnesses[i] == nullptr || job->witness_sizes[i] == 0) {
      throw Error(ZKP_ERR_INVALID_ARGUMENT, "zkp_client_job_t.witnesses[" + std::to_string(i) + "] is empty");
    }
    r.witnesses.emplace_back(reinterpret_cast<const char*>(job->witnesses[i]), job->witness_sizes[i]);
  }
  return r;
}

// Await's whole stream, in completion order.
std::unique_ptr<zkp_client_result_t> await_job(const zkp::client::Connection& c, uint64_t job_id) {
  v1::AwaitRequest request;
  request.set_job_id(job_id);
  auto context = c.context();
  auto reader = c.stub().Await(context.get(), request);
  std::vector<v1::PartitionResult> results;
  for (v1::PartitionResult r; reader->Read(&r);) results.push_back(r);
  zkp::client::check("Await", *context, reader->Finish());
  return zkp::client::make_result(job_id, std::move(results));
}

void sort_by_partition(std::vector<v1::PartitionResult>& results) {
  std::sort(results.begin(), results.end(),
            [](const v1::PartitionResult& a, const v1::PartitionResult& b) { return a.partition() < b.partition(); });
}

// The "zkp-job-id" a failed Prove sent when it had made the job, if it did.
std::optional<uint64_t> job_id_of(const grpc::ClientContext& context) {
  const auto& metadata = context.GetServerInitialMetadata();
  const auto found = metadata.find("zkp-job-id");
  if (found == metadata.end()) return std::nullopt;
  try {
    return std::stoull(std::string(found->second.data(), found->second.size()));
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace

ZKP_EXPORT zkp_status_t zkp_client_connect(const zkp_client_options_t* options, zkp_client_t** out, zkp_error_t* err) {
  return zkp::sdk::guard(err, [&] {
    zkp::sdk::require_struct(options, "zkp_client_options_t");
    zkp_client_t*& result = out_param(out, "out");
    auto client = std::make_unique<zkp_client_t>(settings_of(*options));
    client->connection.connect(options->connect_timeout_ms == 0 ? kDefaultConnectTimeout
                                                                : std::chrono::milliseconds(options->connect_timeout_ms));
    result = client.release();
  });
}

ZKP_EXPORT void zkp_client_close(zkp_client_t* client) { delete client; }

ZKP_EXPORT zkp_status_t zkp_client_load_key(zkp_client_t* client, const char* path, zkp_key_format_t format,
                                            zkp_client_key_t* out, zkp_error_t* err) {
  return zkp_client_load_key_with_generator(client, path, format, nullptr, out, err);
}

ZKP_EXPORT zkp_status_t zkp_client_load_key_with_generator(zkp_client_t* client, const char* path,
                                                           zkp_key_format_t format, const char* witness_generator,
                                                           zkp_client_key_t* out, zkp_error_t* err) {
  return zkp::sdk::guard(err, [&] {
    const auto& c = connection_of(client);
    if (path == nullptr || *path == '\0') throw Error(ZKP_ERR_INVALID_ARGUMENT, "path is NULL or empty");
    if (format != ZKP_KEY_FORMAT_ZKEY && format != ZKP_KEY_FORMAT_BELLPERSON) {
      throw Error(ZKP_ERR_INVALID_ARGUMENT, "format " + std::to_string(format) + " is no ZKP_KEY_FORMAT_*");
    }
    zkp::sdk::require_struct(out, "zkp_client_key_t", kFirstReleaseKeySize);
    v1::LoadKeyRequest request;
    request.set_path(path);
    request.set_format(format == ZKP_KEY_FORMAT_BELLPERSON ? v1::KEY_FORMAT_BELLPERSON : v1::KEY_FORMAT_ZKEY);
    if (witness_generator != nullptr) request.set_witness_generator(witness_generator);
    v1::LoadKeyResponse response;
    auto context = c.context();
    zkp::client::check("LoadKey", *context, c.stub().LoadKey(context.get(), request, &response));
    fill_key(response.key(), response.already_loaded(), out);
  });
}

ZKP_EXPORT zkp_status_t zkp_client_unload_key(zkp_client_t* client, uint64_t key_id, zkp_error_t* err) {
  return zkp::sdk::guard(err, [&] {
    const auto& c = connection_of(client);
    v1::UnloadKeyRequest request;
    request.set_key_id(key_id);
    v1::UnloadKeyResponse response;
    auto context = c.context();
    zkp::client::check("UnloadKey", *context, c.stub().UnloadKey(context.get(), request, &response));
  });
}

ZKP_EXPORT zkp_status_t zkp_client_list_keys(zkp_client_t* client, zkp_client_key_t* keys, size_t capacity, size_t* count,
                                             zkp_error_t* err) {
  return zkp::sdk::guard(err, [&] {
    const auto& c = connection_of(client);
    size_t& n = out_param(count, "count");
    if (keys == nullptr && capacity != 0) throw Error(ZKP_ERR_INVALID_ARGUMENT, "keys is NULL with a capacity");
    v1::ListKeysResponse response;
    auto context = c.context();
    zkp::client::check("ListKeys", *context, c.stub().ListKeys(context.get(), v1::ListKeysRequest(), &response));
    const auto have = static_cast<size_t>(response.keys_size());
    if (capacity < have) {
      n = have;
      throw Error(ZKP_ERR_SHORT_BUFFER, "ListKeys: " + std::to_string(have) + " keys, room for " + std::to_string(capacity));
    }
    // The array's stride is its first element's struct_size: an older caller's are shorter.
    const size_t stride = have == 0 ? 0 : keys[0].header.struct_size;
    if (have != 0 && (stride < kFirstReleaseKeySize || stride % alignof(zkp_client_key_t) != 0)) {
      throw Error(ZKP_ERR_ABI_MISMATCH, "keys[0] has struct_size " + std::to_string(stride) + ", expected at least " +
                                            std::to_string(kFirstReleaseKeySize) + " and a multiple of " +
                                            std::to_string(alignof(zkp_client_key_t)));
    }
    for (size_t i = 0; i < have; ++i) {
      auto* at = reinterpret_cast<zkp_client_key_t*>(reinterpret_cast<unsigned char*>(keys) + i * stride);
      fill_key(response.keys(static_cast<int>(i)), false, at);
    }
    n = have;
  });
}

ZKP_EXPORT zkp_status_t zkp_client_prove(zkp_client_t* client, const zkp_client_job_t* job, zkp_client_result_t** out,
                                         zkp_error_t* err) {
  return zkp::sdk::guard(err, [&] {
    const auto& c = connection_of(client);
    zkp_client_result_t*& result = out_param(out, "out");
    const zkp::client::WitnessJob witness_job = witness_job_of(job);
    if (zkp::client::goes_by_stream(witness_job)) {
      // Large: SubmitStream + Await (submit_job.hpp says why), the answer Prove would give.
      v1::SubmitResponse submitted;
      const zkp::client::CallOutcome sent = zkp::client::submit_witness_job(c, witness_job, &submitted);
      zkp::client::check(sent.call, *sent.context, sent.status);
      try {
        auto awaited = await_job(c, submitted.job_id());
        sort_by_partition(awaited->messages);
        result = zkp::client::make_result(submitted.job_id(), std::move(awaited->messages)).release();
      } catch (const Error&) {
        // Await refused (serve.max_waiting_calls) or broken: a prove that fails leaves no job
        // running for nobody; a Cancel that fails too changes nothing of what is reported.
        v1::CancelRequest cancel;
        cancel.set_job_id(submitted.job_id());
        v1::CancelResponse ignored;
        auto context = c.context();
        (void)c.stub().Cancel(context.get(), cancel, &ignored);
        throw;
      }
      return;
    }
    const v1::JobRequest request = zkp::client::unary_request(witness_job);
    v1::ProveResponse response;
    auto context = c.context();
    const grpc::Status s = c.stub().Prove(context.get(), request, &response);
    if (s.ok()) {
      result = zkp::client::make_result(response.job_id(), {response.partitions().begin(), response.partitions().end()}).release();
      return;
    }
    // A partition failed: Prove answers with its status, and the job (every partition's
    // result) waits in the server's job table under the id it sent first.
    if (const std::optional<uint64_t> job_id = job_id_of(*context)) {
      auto awaited = await_job(c, *job_id);
      sort_by_partition(awaited->messages);
      result = zkp::client::make_result(*job_id, std::move(awaited->messages)).release();
      return;
    }
    zkp::client::check("Prove", *context, s);
  });
}

ZKP_EXPORT zkp_status_t zkp_client_submit(zkp_client_t* client, const zkp_client_job_t* job, uint64_t* job_id,
                                          zkp_error_t* err) {
  return zkp::sdk::guard(err, [&] {
    const auto& c = connection_of(client);
    uint64_t& id = out_param(job_id, "job_id");
    v1::SubmitResponse response;
    const zkp::client::CallOutcome sent = zkp::client::submit_witness_job(c, witness_job_of(job), &response);
    zkp::client::check(sent.call, *sent.context, sent.status);
    id = response.job_id();
  });
}

ZKP_EXPORT zkp_status_t zkp_client_await(zkp_client_t* client, uint64_t job_id, zkp_client_result_t** out, zkp_error_t* err) {
  return zkp::sdk::guard(err, [&] {
    const auto& c = connection_of(client);
    zkp_client_result_t*& result = out_param(out, "out");
    result = await_job(c, job_id).release();
  });
}

ZKP_EXPORT zkp_status_t zkp_client_cancel(zkp_client_t* client, uint64_t job_id, zkp_error_t* err) {
  return zkp::sdk::guard(err, [&] {
    const auto& c = connection_of(client);
    v1::CancelRequest request;
    request.set_job_id(job_id);
    v1::CancelResponse response;
    auto context = c.context();
    zkp::client::check("Cancel", *context, c.stub().Cancel(context.get(), request, &response));
  });
}

ZKP_EXPORT uint64_t zkp_client_result_job_id(const zkp_client_result_t* result) {
  return result == nullptr ? 0 : result->job_id;
}

ZKP_EXPORT size_t zkp_client_result_count(const zkp_client_result_t* result) {
  return result == nullptr ? 0 : result->views.size();
}

ZKP_EXPORT const zkp_client_partition_t* zkp_client_result_partition(const zkp_client_result_t* result, size_t i) {
  if (result == nullptr || i >= result->views.size()) return nullptr;
  return &result->views[i];
}

ZKP_EXPORT void zkp_client_result_free(zkp_client_result_t* result) { delete result; }

ZKP_EXPORT zkp_status_t zkp_client_status(zkp_client_t* client, zkp_client_status_t* out, zkp_error_t* err) {
  return zkp::sdk::guard(err, [&] {
    const auto& c = connection_of(client);
    zkp::sdk::require_struct(out, "zkp_client_status_t");
    v1::StatusResponse st;
    auto context = c.context();
    zkp::client::check("Status", *context, c.stub().Status(context.get(), v1::StatusRequest(), &st));
    auto r = zkp::sdk::make_struct<zkp_client_status_t>();
    r.header = out->header;
    st.prover().copy(r.prover, sizeof r.prover - 1);
    st.version().copy(r.version, sizeof r.version - 1);
    const v1::Stats& x = st.stats();
    r.simulated = st.simulated() ? 1u : 0u;
    r.device_count = x.device_count();
    r.keys_loaded = st.keys_loaded();
    r.jobs_open = st.jobs_open();
    r.jobs_submitted = x.jobs_submitted();
    r.jobs_finished = x.jobs_finished();
    r.partitions_succeeded = x.partitions_succeeded();
    r.partitions_failed = x.partitions_failed();
    r.pending = x.pending();
    r.synthesizing = x.synthesizing();
    r.waiting = x.waiting();
    r.proving = x.proving();
    r.budget_total_bytes = x.budget_total_bytes();
    r.budget_used_bytes = x.budget_used_bytes();
    r.budget_peak_bytes = x.budget_peak_bytes();
    r.uptime_ms = st.uptime_ms();
    *out = r;
  });
}

ZKP_EXPORT zkp_status_t zkp_client_health(zkp_client_t* client, uint32_t* serving, zkp_error_t* err) {
  return zkp::sdk::guard(err, [&] {
    const auto& c = connection_of(client);
    uint32_t& result = out_param(serving, "serving");
    v1::HealthResponse h;
    auto context = c.context();
    zkp::client::check("Health", *context, c.stub().Health(context.get(), v1::HealthRequest(), &h));
    result = h.serving() ? 1u : 0u;
  });
}
