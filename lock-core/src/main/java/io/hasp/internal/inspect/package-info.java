/** Reading what Redis holds for a name, for the client's {@code LockInspector}. Not API. */
package io.hasp.internal.inspect;
