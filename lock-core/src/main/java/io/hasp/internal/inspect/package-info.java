/** Reading what Redis holds for a name, for {@code HaspClient.inspect}. Not API. */
package io.hasp.internal.inspect;
