#include "pacer.hpp"

#include <zkpipe/sdk/error.hpp>

#include <algorithm>

namespace zkp::host {

using sdk::Error;

Pacer::Pacer(std::shared_ptr<PluginLibrary> library, std::unique_ptr<PluginServices> services)
    : library_(std::move(library)), services_(std::move(services)) {}

Pacer::~Pacer() = default;

std::unique_ptr<Pacer> Pacer::create(std::shared_ptr<PluginLibrary> library, const zkp_pacer_facts_t& facts,
                                     const std::vector<PluginOption>& options) {
  const auto* factory = static_cast<const zkp_pacer_factory_t*>(
      library->require_factory(ZKP_PACER_FACTORY_ID, "pacer"));
  const std::string what = library->describe();
  if (factory->header.struct_size < sizeof(zkp_pacer_factory_t) || factory->create == nullptr) {
    throw Error(ZKP_ERR_ABI_MISMATCH, what + ": its pacer factory table is incomplete");
  }
  auto services = PluginServices::create("pacer " + library->name());
  std::unique_ptr<Pacer> self(new Pacer(library, std::move(services)));

  const auto c_options = to_c_options(options);
  auto err = sdk::make_struct<zkp_error_t>();
  zkp_pacer_t* raw = nullptr;
  const zkp_status_t status =
      factory->create(self->services_->get(), &facts, c_options.data(), c_options.size(), &raw, &err);
  if (status != ZKP_OK) {
    const std::string message =
        err.message[0] != '\0' ? std::string(err.message) : what + ": create failed: " + zkp_status_name(status);
    // A refused option is reported with where it was written (file:line or the override).
    throw Error(status, status == ZKP_ERR_INVALID_ARGUMENT ? with_option_origins(message, options, "pacer") : message);
  }
  if (raw == nullptr) throw Error(ZKP_ERR_INTERNAL, what + ": create returned no pacer");
  if (raw->header.struct_size < sizeof(zkp_pacer_t) || raw->destroy == nullptr) {
    throw Error(ZKP_ERR_ABI_MISMATCH, what + ": zkp_pacer_t has struct_size " +
                                          std::to_string(raw->header.struct_size) +
                                          ", expected at least " + std::to_string(sizeof(zkp_pacer_t)));
  }
  self->pacer_.reset(raw);
  if (raw->on_event == nullptr || raw->next_admission_ns == nullptr || raw->status_line == nullptr) {
    throw Error(ZKP_ERR_ABI_MISMATCH, what + ": zkp_pacer_t has a NULL function");
  }
  self->name_ = raw->name != nullptr ? raw->name : library->name();
  return self;
}

std::string Pacer::status_line() {
  // Status lines are short; a pacer that says more gets a second call with room for all.
  constexpr size_t kFirstGuess = 256;
  std::string line(kFirstGuess, '\0');
  size_t needed = pacer_->status_line(pacer_.get(), line.data(), line.size());
  if (needed >= line.size()) {
    line.assign(needed + 1, '\0');
    needed = pacer_->status_line(pacer_.get(), line.data(), line.size());
  }
  line.resize(std::min(needed, line.size() - 1));
  return line;
}

}  // namespace zkp::host
