import statistics as st, collections, sys
f=sys.argv[1]
d=collections.defaultdict(list); pb=collections.defaultdict(list); by=collections.defaultdict(dict)
for l in open(f):
    k,b,_,m,r,ms=l.split()
    m=m.split('=')[1]; v=float(ms.split('=')[1])
    d[(k,m)].append(v); pb[(k,m,b)].append(v); by[(k,b,r)][m]=v
for m in ['munmap-shared','munmap-none','swap part']:
    out=[]
    for k in ['base','patched']:
        if m=='swap part':
            v=[x['munmap-shared']-x['munmap-none'] for (kk,b,r),x in by.items() if kk==k]
            pbm=[st.median([x['munmap-shared']-x['munmap-none'] for (kk,bb,r),x in by.items() if kk==k and bb==str(b)]) for b in range(1,6)]
        else:
            v=d[(k,m)]; pbm=[st.median(pb[(k,m,str(b))]) for b in range(1,6)]
        out.append((st.median(v),min(v),max(v),pbm))
    r=out[0][0]/out[1][0]
    dis = max(out[1][3])<min(out[0][3]) or max(out[0][3])<min(out[1][3])
    print('%-14s base %.3f (%.3f-%.3f) patched %.3f (%.3f-%.3f) ratio %.2f; per-boot medians base %s patched %s %s'%(m,out[0][0],out[0][1],out[0][2],out[1][0],out[1][1],out[1][2],r,' '.join('%.2f'%x for x in out[0][3]),' '.join('%.2f'%x for x in out[1][3]),'disjoint' if dis else 'overlapping'))
