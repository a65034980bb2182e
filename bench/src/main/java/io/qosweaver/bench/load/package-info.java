/**
 * The HTTP load driver: closed-loop clients and open-loop streams per class, sent with the JDK's
 * client or, for an open loop whose latency must be the server's, one blocking keep-alive socket per
 * sending thread ({@link io.qosweaver.bench.load.SocketHttp}); latency histograms, per-second series.
 */
package io.qosweaver.bench.load;
