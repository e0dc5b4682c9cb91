/** Class-file writing for the code layout generates at run time (internal): {@link dev.layout.bytecode.ClassBytes}. */
package dev.layout.bytecode;
