/** The demo: the flash crowd on the original and under QoSWeaver, side by side. */
package io.qosweaver.bench.demo;
