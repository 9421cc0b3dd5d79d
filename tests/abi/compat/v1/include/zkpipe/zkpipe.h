/* zkpipe C ABI, version 1 — everything in one include. */
#ifndef ZKPIPE_H
#define ZKPIPE_H
#include "zkp_common.h"
#include "zkp_plugin.h"
#include "zkp_prover.h"
#include "zkp_pacer.h"
#include "zkp_host.h"
#endif /* ZKPIPE_H */
