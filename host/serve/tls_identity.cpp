#include "tls_identity.hpp"

#include "services/tls.hpp"

#include <zkpipe/sdk/error.hpp>

#include <grpcpp/security/tls_credentials_options.h>
#include <openssl/bio.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace zkp::serve {

namespace {

namespace fs = std::filesystem;
using sdk::Error;

// Throws unless `key_pem` is the private key of the first certificate of `cert_pem`: gRPC
// would take a mismatched pair and fail every handshake after, saying so only in its log.
void check_pair(const std::string& cert_pem, const std::string& key_pem, const std::string& cert_file,
                const std::string& key_file) {
  BIO* cert_bio = BIO_new_mem_buf(cert_pem.data(), static_cast<int>(cert_pem.size()));
  X509* cert = cert_bio != nullptr ? PEM_read_bio_X509(cert_bio, nullptr, nullptr, nullptr) : nullptr;
  BIO_free(cert_bio);
  BIO* key_bio = BIO_new_mem_buf(key_pem.data(), static_cast<int>(key_pem.size()));
  EVP_PKEY* key = key_bio != nullptr ? PEM_read_bio_PrivateKey(key_bio, nullptr, nullptr, nullptr) : nullptr;
  BIO_free(key_bio);
  const bool matches = cert != nullptr && key != nullptr && X509_check_private_key(cert, key) == 1;
  X509_free(cert);
  EVP_PKEY_free(key);
  if (cert == nullptr) throw Error(ZKP_ERR_INVALID_ARGUMENT, "serve.tls_cert '" + cert_file + "' holds no PEM certificate");
  if (key == nullptr) throw Error(ZKP_ERR_INVALID_ARGUMENT, "serve.tls_key '" + key_file + "' holds no PEM private key");
  if (!matches) {
    throw Error(ZKP_ERR_INVALID_ARGUMENT,
                "serve.tls_key '" + key_file + "' is not the private key of serve.tls_cert '" + cert_file + "'");
  }
}

void write_private(const std::string& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  bool ok = fd >= 0;
  for (size_t done = 0; ok && done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    ok = n > 0;
    if (ok) done += static_cast<size_t>(n);
  }
  if (fd >= 0) ok = ::close(fd) == 0 && ok;
  if (!ok) throw Error(ZKP_ERR_INVALID_ARGUMENT, "cannot write the TLS pair's private copy " + path);
}

// "v3": a version's folder. Appended, not "v" + to_string(): GCC 12 warns falsely
// (-Wrestrict) on that operator+ once inlined.
std::string version_name(unsigned version) {
  std::string name = "v";
  name += std::to_string(version);
  return name;
}

}  // namespace

TlsIdentity::TlsIdentity(const std::string& cert_file, const std::string& key_file) {
  const std::string cert_pem = services::read_pem(cert_file, "serve.tls_cert");
  const std::string key_pem = services::read_pem(key_file, "serve.tls_key");
  check_pair(cert_pem, key_pem, cert_file, key_file);
  std::string tmpl = (fs::temp_directory_path() / "zkpipe-tls.XXXXXX").string();
  if (::mkdtemp(tmpl.data()) == nullptr) throw Error(ZKP_ERR_INVALID_ARGUMENT, "cannot make a private folder " + tmpl);
  dir_ = tmpl;  // mkdtemp makes it 0700
  install(cert_pem, key_pem);
  provider_ = std::make_shared<grpc::experimental::FileWatcherCertificateProvider>(
      dir_ + "/current/key.pem", dir_ + "/current/cert.pem", kRefreshSeconds);
  grpc::experimental::TlsServerCredentialsOptions options(provider_);
  options.watch_identity_key_cert_pairs();
  options.set_cert_request_type(GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE);
  credentials_ = grpc::experimental::TlsServerCredentials(options);
}

TlsIdentity::~TlsIdentity() {
  credentials_.reset();
  provider_.reset();
  remove_private_copy();
}

void TlsIdentity::remove_private_copy() noexcept {
  std::lock_guard lock(mu_);
  std::error_code ignored;
  if (!dir_.empty()) fs::remove_all(dir_, ignored);
  dir_.clear();
}

void TlsIdentity::reload(const std::string& cert_file, const std::string& key_file) {
  const std::string cert_pem = services::read_pem(cert_file, "serve.tls_cert");
  const std::string key_pem = services::read_pem(key_file, "serve.tls_key");
  check_pair(cert_pem, key_pem, cert_file, key_file);
  install(cert_pem, key_pem);
}

void TlsIdentity::install(const std::string& cert_pem, const std::string& key_pem) {
  std::lock_guard lock(mu_);
  const unsigned next = version_ + 1;
  const std::string version_dir = dir_ + "/" + version_name(next);
  std::error_code ec;
  fs::remove_all(version_dir, ec);
  if (::mkdir(version_dir.c_str(), 0700) != 0) throw Error(ZKP_ERR_INVALID_ARGUMENT, "cannot make " + version_dir);
  write_private(version_dir + "/key.pem", key_pem);
  write_private(version_dir + "/cert.pem", cert_pem);
  // gRPC also compares the files' modification times (in seconds) around its read, to retry
  // one that straddled an update: make the new pair's differ from the old pair's.
  const std::string old_dir = dir_ + "/" + version_name(version_);
  struct stat old_st {};
  if (version_ != 0 && ::stat((old_dir + "/cert.pem").c_str(), &old_st) == 0) {
    struct stat new_st {};
    if (::stat((version_dir + "/cert.pem").c_str(), &new_st) == 0 && new_st.st_mtim.tv_sec <= old_st.st_mtim.tv_sec) {
      const timespec times[2] = {{0, UTIME_OMIT}, {old_st.st_mtim.tv_sec + 1, 0}};
      for (const char* f : {"/key.pem", "/cert.pem"}) ::utimensat(AT_FDCWD, (version_dir + f).c_str(), times, 0);
    }
  }
  // The swap: a new symlink renamed over `current`, one atomic step.
  const std::string link = dir_ + "/current.new";
  ::unlink(link.c_str());
  if (::symlink(version_name(next).c_str(), link.c_str()) != 0 ||
      ::rename(link.c_str(), (dir_ + "/current").c_str()) != 0) {
    throw Error(ZKP_ERR_INVALID_ARGUMENT, "cannot switch the TLS pair's private copy in " + dir_);
  }
  // The version before the old one: gRPC has read the old one since, or will read the new.
  if (version_ >= 1) fs::remove_all(dir_ + "/" + version_name(version_ - 1), ec);
  version_ = next;
}

}  // namespace zkp::serve
