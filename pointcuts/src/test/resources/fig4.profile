# QoSWeaver paper, Fig. 4 (a): calls f1..f6 in five slots of 10 ms.
# <time_ns> <caller> <callee>; the caller is the same everywhere (the paper ignores it).
# slot 0
0        void demo.Fig4.main(java.lang.String[]) void demo.Fig4.f1()
3000000  void demo.Fig4.main(java.lang.String[]) void demo.Fig4.f2()
6000000  void demo.Fig4.main(java.lang.String[]) void demo.Fig4.f3()
# slot 1
10000000 void demo.Fig4.main(java.lang.String[]) void demo.Fig4.f4()
13000000 void demo.Fig4.main(java.lang.String[]) void demo.Fig4.f5()
16000000 void demo.Fig4.main(java.lang.String[]) void demo.Fig4.f3()
# slot 2
20000000 void demo.Fig4.main(java.lang.String[]) void demo.Fig4.f4()
23000000 void demo.Fig4.main(java.lang.String[]) void demo.Fig4.f5()
# slot 3
30000000 void demo.Fig4.main(java.lang.String[]) void demo.Fig4.f2()
33000000 void demo.Fig4.main(java.lang.String[]) void demo.Fig4.f5()
# slot 4
40000000 void demo.Fig4.main(java.lang.String[]) void demo.Fig4.f6()
43000000 void demo.Fig4.main(java.lang.String[]) void demo.Fig4.f2()
