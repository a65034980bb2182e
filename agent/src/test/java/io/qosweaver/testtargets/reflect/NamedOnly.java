package io.qosweaver.testtargets.reflect;

/** Only named in a signature of {@link NotAServlet}: loading it means someone reflected on that class. */
public class NamedOnly {}
