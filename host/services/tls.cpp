#include "services/tls.hpp"

#include <zkpipe/sdk/error.hpp>

#include <cstdint>
#include <fstream>
#include <sstream>

#include <sys/stat.h>

namespace zkp::services {

namespace {

// A certificate chain is a few KiB; a CA bundle of every public root about 200 KiB.
constexpr uintmax_t kMaxPemBytes = 1 << 20;

}  // namespace

std::string read_pem(const std::string& path, const std::string& what) {
  // Regular files only (stat before open), as for serve.token_file: a FIFO would block the
  // start, /dev/zero never end.
  if (struct stat st {}; ::stat(path.c_str(), &st) == 0) {
    if (!S_ISREG(st.st_mode)) throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, what + " '" + path + "' is not a regular file");
    if (static_cast<uintmax_t>(st.st_size) > kMaxPemBytes) {
      throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, what + " '" + path + "' is over 1 MiB: no PEM file is that large");
    }
  }
  std::ifstream f(path, std::ios::binary);
  if (!f) throw sdk::Error(ZKP_ERR_NOT_FOUND, what + " '" + path + "' cannot be read");
  std::ostringstream text;
  text << f.rdbuf();
  // gRPC would refuse it too, but later and only in its log: say which file is wrong here.
  if (text.str().find("-----BEGIN ") == std::string::npos) {
    throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, what + " '" + path + "' holds no PEM block (-----BEGIN ...)");
  }
  return text.str();
}

std::shared_ptr<grpc::ChannelCredentials> tls_channel_credentials(const std::string& ca_file) {
  grpc::SslCredentialsOptions options;
  options.pem_root_certs = read_pem(ca_file, "--tls-ca");
  return grpc::SslCredentials(options);
}

}  // namespace zkp::services
