import json,sys
def load(p): return {json.loads(l)['case']:json.loads(l)['beams'] for l in open(p)}
a=load(sys.argv[1]); b=load(sys.argv[2])
assert set(a)==set(b), (len(a),len(b))
diff=[c for c in a if [x['text'] for x in a[c]]!=[x['text'] for x in b[c]]]
md=max((abs(x['logprob']-y['logprob']) for c in a for x,y in zip(a[c],b[c]) if x['text']==y['text']), default=0)
print(len(a), 'cases;', len(a)-len(diff), 'same beam lists; max logprob diff', md, 'differ:', diff)
