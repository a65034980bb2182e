package io.qosweaver.testtargets.reflect;

/** Declares a {@code service} method but is no servlet; its signatures name a class nobody loads. */
public class NotAServlet {
    public void service(NamedOnly request, Object response) {}
}
