"""Per window: the chart threads' cores per second fitted to the GC's cores and the fraction of the
second a collection ran (least squares), and the spread of each. Reads thread-cpu.csv beside it, or
the file given. Run: python3 analysis.py [thread-cpu.csv]"""
import collections, csv, os, sys


def ols(X, Y):
    n = len(X[0])
    A = [[sum(r[i] * r[j] for r in X) for j in range(n)] for i in range(n)]
    b = [sum(r[i] * y for r, y in zip(X, Y)) for i in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            f = A[j][i] / A[i][i]
            for k in range(i, n):
                A[j][k] -= f * A[i][k]
            b[j] -= f * b[i]
    x = [0.0] * n
    for i in reversed(range(n)):
        x[i] = (b[i] - sum(A[i][k] * x[k] for k in range(i + 1, n))) / A[i][i]
    return x


def sd(v):
    m = sum(v) / len(v)
    return (sum((x - m) ** 2 for x in v) / len(v)) ** 0.5


windows = collections.defaultdict(list)
path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), 'thread-cpu.csv')
with open(path) as f:
    for r in csv.DictReader(f):
        windows[(r['version'], r['window'])].append(r)
print('| version | window | charts = a + b*gc + c*collecting | R^2 | sd charts | mean gc | sd gc | mean collecting |')
print('|---|---|---|---|---|---|---|---|')
for (v, w), rs in windows.items():
    Y = [float(r['qtp_cores']) for r in rs]
    X = [[1.0, float(r['gc_cores']), float(r['collecting_fraction'])] for r in rs]
    a, b, c = ols(X, Y)
    pred = [a + b * x[1] + c * x[2] for x in X]
    m = sum(Y) / len(Y)
    r2 = 1 - sum((y - p) ** 2 for y, p in zip(Y, pred)) / sum((y - m) ** 2 for y in Y)
    g = [x[1] for x in X]
    print('| %s | %s | %.2f %+.2f gc %+.2f coll | %.2f | %.2f | %.2f | %.2f | %.2f |' % (
        v, w, a, b, c, r2, sd(Y), sum(g) / len(g), sd(g), sum(x[2] for x in X) / len(X)))
