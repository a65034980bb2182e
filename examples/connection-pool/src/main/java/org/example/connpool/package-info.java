/**
 * The thesis' case study 2 as an example application: processors sharing a connection pool whose
 * release notifies waiters only when the pool was empty (a lost wake-up), and the fix behind
 * {@code --fixed}.
 */
package org.example.connpool;
