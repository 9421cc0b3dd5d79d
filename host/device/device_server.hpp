// What a zkpipe-device process does (host/src/isolation/protocol/ has the protocol):
// answers the host's frames on one socket for one device of one prover plugin.
//
// The main thread reads frames: create (opens the plugin and creates its prover, as the host
// would in-process, through host/src/prover.cpp), key_load, key_free and device_info are
// answered there, in order; prove and verify go to a pool of as many threads as the host has
// ops in flight on this device (workers_per_device x ops_per_worker), each of which
// synthesizes (for a witness), proves and writes the proof into the partition's shared buffer
// before it replies; synthesize goes to a second pool, of the host's synthesis_threads, which
// calls the plugin's synthesize_into into the partition's shared buffer, so synthesis overlaps
// the proofs on the first. Replies are sent under one lock, in the order they finish.
//
// End of stream (the host closed the socket or died) ends the process: the pool finishes
// what it has, keys and prover are freed in order. A crash ends it too; that is the point:
// the host sees the socket close and restarts it.
#pragma once

namespace zkp::device {

// Serves `socket` until the host goes away; returns the process's exit status.
int serve(int socket);

}  // namespace zkp::device
