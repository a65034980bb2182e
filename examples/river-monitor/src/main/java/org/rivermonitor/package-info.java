/**
 * The river monitor (the paper's Kasendas): its start-up, options and the rivers it watches.
 */
package org.rivermonitor;
