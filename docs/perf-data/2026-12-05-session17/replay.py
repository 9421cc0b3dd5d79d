# Replays an instrument.py trace on P workers: every pool job's tasks (an MSM's own tasks for
# its job) handed out in index order to the first free worker, as ThreadPool and
# msm::parallel_for do, plus the serial gaps between jobs as logged on the calling thread.
# A model of the P-core time of the traced stretch (from the first pool job to the last): it
# takes the tasks' CPU times from the traced machine and ignores memory bandwidth, clocks and
# the OS. Usage: replay.py TRACE P
import sys, heapq
P=int(sys.argv[2]); lines=open(sys.argv[1]).read().split('\n')
jobs=[]; cur=None; msm=False; mt=[]
for l in lines:
    f=l.split()
    if not f: continue
    if f[0]=='MSMCALL': msm=True
    elif f[0]=='JOBSTART': cur={'n':int(f[1]),'s':float(f[2]),'pt':[],'mt':[],'msm':msm}; msm=False
    elif f[0]=='JOBEND': cur['e']=float(f[1]); jobs.append(cur)
    elif f[0]=='PT' and cur: cur['pt'].append(float(f[2]))
    elif f[0]=='TASK' and cur: cur['mt'].append(float(f[3]))
def span(d,P):
    h=[0.0]*P
    for x in d: heapq.heappush(h, heapq.heappop(h)+x)
    return max(h)
prev=None; tot_serial=0; tot_span=0; tot_ideal=0; tot_meas=0
start=int(sys.argv[3]) if len(sys.argv)>3 else 0
for k,j in enumerate(jobs):
    if k<start: continue
    gap = j['s']-prev if prev else 0
    prev=j['e']
    d = j['mt'] if j['msm'] else j['pt']
    w=sum(d); sp=span(d,P)
    tot_serial+=gap; tot_span+=sp; tot_ideal+=w/P; tot_meas+=j['e']-j['s']
    print(f"job {k:3d} {'MSM' if j['msm'] else 'pool'} tasks {len(d):4d} gap {gap:7.1f} work {w:8.1f} span@{P} {sp:7.1f} ideal {w/P:7.1f} meas {j['e']-j['s']:7.1f}")
print(f"serial gaps {tot_serial:.0f} ms, jobs span@{P} {tot_span:.0f} (ideal {tot_ideal:.0f}) => predicted {tot_serial+tot_span:.0f} ms; measured jobs {tot_meas:.0f}")
