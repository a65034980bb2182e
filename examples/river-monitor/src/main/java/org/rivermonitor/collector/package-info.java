/**
 * The periodic collector: fetches every river's level from the sensors once a period, stores it
 * and must finish within the period (the deadline).
 */
package org.rivermonitor.collector;
