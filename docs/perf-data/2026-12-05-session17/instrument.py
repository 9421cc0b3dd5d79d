# Temporary instrumentation for the 16-thread replay (docs/PERF.md, "CPU prover, scaling: the
# MSM's tasks and the serial stretches"). Applied to a checkout, never committed:
#   python3 instrument.py REPO && cmake --build BUILD --target zkp_prover_cpu
# With ZKP_TASK_TRACE set, ThreadPool::run logs each job's start and end (wall clock, on the
# caller) and every task's thread CPU time (PT); msm::parallel_for logs its tasks (TASK) and
# marks its pool job (MSMCALL). Run the prover with prover.threads=16 on any machine, then
# replay.py TRACE 16.
import sys
root=sys.argv[1]
p=root+'/provers/core/util/thread_pool.cpp'
s=open(p).read()
s=s.replace('''    try {
      (*task)(i);''','''    try {
      timespec a{}, b{};
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
      (*task)(i);
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
      if (std::getenv("ZKP_TASK_TRACE")) std::fprintf(stderr, "PT %zu %.3f\\n", i, (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6);''')
s=s.replace('''  std::lock_guard run_lock(run_mutex_);
  {''','''  std::lock_guard run_lock(run_mutex_);
  const bool trace = std::getenv("ZKP_TASK_TRACE") != nullptr;
  const auto wall = [] { timespec t{}; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e3 + t.tv_nsec / 1e6; };
  if (trace) std::fprintf(stderr, "JOBSTART %zu %.3f\\n", count, wall());
  struct End { bool t; decltype(wall) w; ~End() { if (t) std::fprintf(stderr, "JOBEND %.3f\\n", w()); } } end_{trace, wall};
  {''')
s='#include <cstdio>\n#include <cstdlib>\n#include <ctime>\n'+s
open(p,'w').write(s)
p=root+'/provers/core/msm/parallel.hpp'
s=open(p).read()
s=s.replace('#include <vector>\n','#include <vector>\n#include <cstdio>\n#include <cstdlib>\n#include <ctime>\n',1)
s=s.replace('''        body(t, worker);''','''        timespec a{}, b{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
        body(t, worker);
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
        static const bool trace = std::getenv("ZKP_TASK_TRACE") != nullptr;
        if (trace) std::fprintf(stderr, "TASK %zu %zu %.3f\\n", tasks, t, (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6);''')
s=s.replace('''    pool->run(workers, [&](std::size_t w) { drain(w); });''','''    if (std::getenv("ZKP_TASK_TRACE")) std::fprintf(stderr, "MSMCALL\\n");
    pool->run(workers, [&](std::size_t w) { drain(w); });''')
open(p,'w').write(s)
