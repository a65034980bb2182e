/**
 * The Jetty server and its servlets: charts, current levels, the collections' status.
 */
package org.rivermonitor.web;
