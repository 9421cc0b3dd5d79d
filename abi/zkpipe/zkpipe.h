/* zkpipe C ABI, version 1 — everything in one include: libzkpipe's C API and the plugin ABI.
 * zkp_client.h and zkp_queue.h, beside these, are the C APIs of libzkpipe_client and
 * libzkpipe_queue: include them on their own, with their libraries. */
#ifndef ZKPIPE_H
#define ZKPIPE_H
#include "zkp_common.h"
#include "zkp_plugin.h"
#include "zkp_prover.h"
#include "zkp_pacer.h"
#include "zkp_witness.h"
#include "zkp_host.h"
#endif /* ZKPIPE_H */
