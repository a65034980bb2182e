/**
 * The level history in H2 or PostgreSQL over JDBC: schema, seeding, reads for charts.
 */
package org.rivermonitor.db;
