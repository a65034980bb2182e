/**
 * Water-level charts of the last hours, drawn with JFreeChart: the application's most expensive
 * pages.
 */
package org.rivermonitor.chart;
