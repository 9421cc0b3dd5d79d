// How an MSM's bucket work is cut into tasks for its threads: the window size c and the number
// of chunks each window's scalars are cut into (pippenger.hpp runs one task per window and
// chunk, then the ±1 scalars in tasks of their own).
//
// Chosen together, for the thread count, by a makespan model. Equal tasks on P workers finish
// in ⌈T/P⌉ rounds, so the task count matters as much as the work: 17 windows (c = 15 at 2^18
// to 2^20 scalars) in 3 chunks are 51 tasks, 4 rounds on 16 threads where 48 would take 3, and
// 9 rounds on 2 threads where 16 windows take 8. A thread finishing its last task waits for the
// others: 18–21% of the MSM at 16 threads in a replay of a 2^20 proof's tasks, 6% at 2
// (docs/PERF.md, "CPU prover, scaling: the MSM's tasks and the serial stretches"). Chunks are
// not free either: every chunk of a window reduces all 2^(c−1) buckets of its own.
//
// Model, in units of one bucket addition (one entry of the counting sort):
//   a task      t = ⌈n / chunks⌉ + 3·2^(c−1)        (its entries, then its bucket reduction)
//   makespan    max(⌈T/P⌉·t, (T·t + units) / P)     T = windows(c)·chunks tasks
// The reduction's 3 additions per bucket is window.cpp's model; bench_msm's per-task times on
// the 2-core development machine gave 2.6 (BN254 G1, 2^18, c = 13..16). c is searched from two
// below to one above window_bits_for(n), the measured single-thread optimum, and that c is kept
// unless another is modelled more than kPreferTable faster: the table is a measurement, the
// model a sketch. A caller's fixed c (Options::window_bits) only gets its chunks chosen.
//
// Memory bounds the choice. Every worker holds its task's counting sort (8 bytes a scalar of
// its chunk) and its window's buckets (2^(c−1) points), so one chunk per window and a larger c
// cost memory on many threads: unbounded, 2^20 scalars on 16 threads took peak RSS from 713 to
// 831 MB (rapidsnark: 750). A split may hold as much of that scratch as the fixed rule it
// replaced (3 tasks a thread at the table's c) held, or 32 MiB if that is more; no more.
#pragma once

#include <cstddef>

namespace zkp::msm {

struct WorkSplit {
  unsigned c = 0;          // window bits
  std::size_t chunks = 1;  // chunks per window, each ⌈n / chunks⌉ scalars (at least 2^c of them)
};

// The modelled makespan above, in bucket additions, for `windows` windows of c bits.
double modeled_makespan(std::size_t n, std::size_t windows, unsigned c, std::size_t chunks, std::size_t units,
                        std::size_t threads);

// The workers' scratch the memory bound counts, in bytes, for points of `point_bytes`.
std::size_t modeled_scratch_bytes(std::size_t n, std::size_t windows, unsigned c, std::size_t chunks,
                                  std::size_t threads, std::size_t point_bytes);

// The fixed rule split_work replaced: the table's c (or window_bits), ⌈3·threads / windows⌉
// chunks, at most n / 2^c.
WorkSplit fixed_rule_split(std::size_t n, std::size_t max_bits, std::size_t threads, unsigned window_bits = 0);

// The split for n scalars other than 0 and ±1 whose largest magnitude has `max_bits` bits,
// `units` scalars ±1, on `threads` threads, for bases of `point_bytes` (sizeof(PointXY<F>));
// window_bits ≠ 0 fixes c.
WorkSplit split_work(std::size_t n, std::size_t max_bits, std::size_t units, std::size_t threads,
                     std::size_t point_bytes, unsigned window_bits = 0);

}  // namespace zkp::msm
