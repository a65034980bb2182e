/**
 * The sensor web service the collector reads, emulated in the same process unless an external one
 * is given.
 */
package org.rivermonitor.generator;
