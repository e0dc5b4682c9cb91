/**
 * Class-file writing for the code layout generates at run time (internal): AutoMap's record
 * accessors and the engine's word kernels are hidden classes whose offsets are constants, so the JIT
 * compiles them like hand-written loops.
 */
package dev.layout.bytecode;
