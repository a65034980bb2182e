/**
 * MyServer, after the dynamic-weaving paper's example (Gilani et al., Fig. 8): connection threads
 * that poll a list of accepted connections in a loop instead of blocking, so that an idle server
 * keeps its cores busy. Written to be found with {@code qosweaver watch} and fixed at run time
 * with a semaphore aspect ({@code policies/fix-busy-wait.yaml}); its own code is never changed.
 */
package org.example.myserver;
