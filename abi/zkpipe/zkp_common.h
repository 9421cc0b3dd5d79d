/*
 * zkpipe C ABI, version 1 — common definitions.
 *
 * Everything that crosses a zkpipe boundary (host <-> plugin, host <-> caller) is
 * declared in the headers of this folder, in C99, with fixed-width integers and no
 * C++ types. This header defines what all of them share:
 *
 *  - ZKP_ABI_VERSION and the export/calling-convention macros;
 *  - status codes (zkp_status_t) and the error record (zkp_error_t) that every
 *    fallible function fills on failure;
 *  - curve ids;
 *  - the {struct_size, struct_version} header that starts every struct passed by
 *    pointer across the boundary, so either side can tell which fields the other
 *    one knows (structs only ever grow at the end; a reader never touches a field
 *    at an offset >= struct_size);
 *  - the thread and ownership tags used in every function comment.
 *
 * Thread tags used in comments:
 *   [any-thread]       may be called from any thread, concurrently with other calls
 *                      tagged [any-thread] on the same object.
 *   [serialized]       the caller guarantees calls on one object do not overlap.
 *   [worker-thread]    called by the host on one of its GPU worker threads.
 *   [synthesis-thread] called by the host on one of its synthesis threads.
 *   [completion-thread] called by the host on its completion thread.
 * No call is tied to one thread: an object may be created, used and freed on different
 * threads (the host creates and destroys its plugins' objects on the threads that create
 * and destroy the host, which may differ). The call that frees an object (destroy,
 * key_free, deinit, ...) is its last: it is made with no other call on that object in
 * flight, and none follows.
 *
 * Ownership sentences say who frees a pointer and until when it is valid, e.g.
 * "owned by the plugin, valid until key_free()".
 */
#ifndef ZKP_COMMON_H
#define ZKP_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
#define ZKP_EXTERN_C extern "C"
#else
#define ZKP_EXTERN_C
#endif

#if defined(_WIN32)
#define ZKP_EXPORT_ATTR __declspec(dllexport)
#else
#define ZKP_EXPORT_ATTR __attribute__((visibility("default")))
#endif

/* Marks a symbol a shared library exports (plugins: only zkp_plugin_entry). */
#define ZKP_EXPORT ZKP_EXTERN_C ZKP_EXPORT_ATTR

/* Calling convention of every function pointer in the ABI (empty on x86-64 SysV/AArch64). */
#define ZKP_CALL

/* The ABI version this header describes. A plugin states the range it speaks;
 * the host refuses a plugin whose range does not include a version it speaks. */
#define ZKP_ABI_VERSION 1u

/* Status codes. Zero is success; every other value is a failure class whose details
 * are in the zkp_error_t message. New codes are only ever appended. */
typedef int32_t zkp_status_t;
#define ZKP_OK 0
#define ZKP_ERR_INVALID_ARGUMENT 1   /* a NULL, out-of-range or inconsistent argument */
#define ZKP_ERR_NOT_FOUND 2          /* a file, plugin, factory, key or job that does not exist */
#define ZKP_ERR_ABI_MISMATCH 3       /* no common ABI version, or a struct too small */
#define ZKP_ERR_BAD_INPUT 4          /* a malformed file or buffer (zkey, wtns, r1cs, json) */
#define ZKP_ERR_UNSATISFIED_WITNESS 5 /* the witness does not satisfy the circuit */
#define ZKP_ERR_OUT_OF_MEMORY 6      /* host or device memory allocation failed */
#define ZKP_ERR_DEVICE 7             /* a device fault, a driver error (lost for good: DEVICE_LOST) */
#define ZKP_ERR_BUDGET_EXHAUSTED 8   /* the memory budget can never grant the request */
#define ZKP_ERR_CANCELLED 9          /* the job was cancelled or the host shut down */
#define ZKP_ERR_SHORT_BUFFER 10      /* a caller buffer is too small; the size needed is reported */
#define ZKP_ERR_UNSUPPORTED 11       /* the backend cannot do this (curve, feature, simulation) */
#define ZKP_ERR_INTERNAL 12          /* a bug: an invariant broke; the message says which */
#define ZKP_ERR_TIMEOUT 13           /* a wait ran out of time; nothing was lost */
#define ZKP_ERR_INVALID_PROOF 14     /* a proof that was checked and does not verify (added after
                                        the first release, for zkp_host_verify) */
#define ZKP_ERR_DEVICE_LOST 15       /* the device is unusable for good in this process: a sticky
                                        fault (an illegal address) broke its context, so every
                                        later call there fails too; only a new process (with
                                        isolation = process: the host restarts the device's
                                        process) can use it again. Added after ZKP_ERR_INVALID_PROOF;
                                        a host built before it sees an unknown code */
#define ZKP_STATUS_COUNT 16

/* A short, stable, lower-case name for a status code ("ok", "bad input", ...). */
static inline const char *zkp_status_name(zkp_status_t s) {
  switch (s) {
    case ZKP_OK: return "ok";
    case ZKP_ERR_INVALID_ARGUMENT: return "invalid argument";
    case ZKP_ERR_NOT_FOUND: return "not found";
    case ZKP_ERR_ABI_MISMATCH: return "ABI mismatch";
    case ZKP_ERR_BAD_INPUT: return "bad input";
    case ZKP_ERR_UNSATISFIED_WITNESS: return "unsatisfied witness";
    case ZKP_ERR_OUT_OF_MEMORY: return "out of memory";
    case ZKP_ERR_DEVICE: return "device error";
    case ZKP_ERR_BUDGET_EXHAUSTED: return "budget exhausted";
    case ZKP_ERR_CANCELLED: return "cancelled";
    case ZKP_ERR_SHORT_BUFFER: return "short buffer";
    case ZKP_ERR_UNSUPPORTED: return "unsupported";
    case ZKP_ERR_INTERNAL: return "internal error";
    case ZKP_ERR_TIMEOUT: return "timeout";
    case ZKP_ERR_INVALID_PROOF: return "invalid proof";
    case ZKP_ERR_DEVICE_LOST: return "device lost";
    default: return "unknown status";
  }
}

/* Every struct passed by pointer across the boundary begins with this header.
 * struct_size = sizeof(the struct as the writer knows it); struct_version = the
 * version of that struct's layout (1 for everything in ABI 1). */
typedef struct zkp_struct_header_t {
  uint32_t struct_size;
  uint32_t struct_version;
} zkp_struct_header_t;

/* Fills a header for a struct type T at layout version 1: ZKP_HEADER_INIT(zkp_error_t). */
#define ZKP_HEADER_INIT(T) {(uint32_t)sizeof(T), 1u}

/* Error record. Every fallible function takes `zkp_error_t *err` as its last
 * argument; it may be NULL. On failure the callee writes `status` and a
 * NUL-terminated, human-readable `message` (truncated to fit) that names the
 * thing that failed and why ("circuit.zkey: section 7 is 4096 bytes, expected
 * 8192 for 32 G2 points"). On success the callee sets status = ZKP_OK and
 * message[0] = 0. The caller owns the record. */
#define ZKP_ERROR_MESSAGE_CAPACITY 1024
typedef struct zkp_error_t {
  zkp_struct_header_t header;
  zkp_status_t status;
  char message[ZKP_ERROR_MESSAGE_CAPACITY];
} zkp_error_t;

/* Pairing-friendly curves. The scalar field element size (n8r) is 32 bytes for
 * both; the base field element size (n8q) is 32 (BN254) or 48 (BLS12-381). */
typedef uint32_t zkp_curve_t;
#define ZKP_CURVE_UNKNOWN 0u
#define ZKP_CURVE_BN254 1u     /* snarkjs "bn128", a.k.a. alt_bn128 */
#define ZKP_CURVE_BLS12_381 2u /* snarkjs "bls12381" */

/* A key=value pair of options handed to a plugin factory (from the host config's
 * [prover] or [pacer] section). Strings owned by the caller, valid for the call. */
typedef struct zkp_option_t {
  const char *key;
  const char *value;
} zkp_option_t;

/* Log levels for zkp_host_services_t.log. */
typedef int32_t zkp_log_level_t;
#define ZKP_LOG_TRACE 0
#define ZKP_LOG_DEBUG 1
#define ZKP_LOG_INFO 2
#define ZKP_LOG_WARN 3
#define ZKP_LOG_ERROR 4

/* What the host offers every plugin object it creates.
 * Owned by the host, valid until the object created with it is destroyed. */
typedef struct zkp_host_services_t {
  zkp_struct_header_t header;
  void *host_data; /* opaque; pass back to the functions below */
  /* [any-thread] Writes one line to the host's log. `message` is owned by the caller. */
  void(ZKP_CALL *log)(void *host_data, zkp_log_level_t level, const char *message);
  /* [any-thread] Monotonic clock in nanoseconds (the host's pipeline clock). */
  uint64_t(ZKP_CALL *now_ns)(void *host_data);
} zkp_host_services_t;

#endif /* ZKP_COMMON_H */
