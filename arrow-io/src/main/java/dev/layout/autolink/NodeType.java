package dev.layout.autolink;

import java.lang.invoke.MethodHandle;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Schema;

/** A registered node class: its id, serialized fields, Arrow schema and how to create instances. */
final class NodeType {
  final int id;
  final Class<?> type;
  final List<NodeField> fields;
  final Schema schema;
  final boolean isRecord;
  /** Classes: ()Object. Records: (Object[])Object over the canonical constructor. */
  final MethodHandle constructor;
  /** Positions in {@link #fields} of the reference fields (REF, REF_ARRAY, REF_LIST), in field order. */
  final int[] referenceFields;

  NodeType(int id, Class<?> type, List<NodeField> fields, Schema schema, boolean isRecord, MethodHandle constructor) {
    this.id = id;
    this.type = type;
    this.fields = fields;
    this.schema = schema;
    this.isRecord = isRecord;
    this.constructor = constructor;
    this.referenceFields = java.util.stream.IntStream.range(0, fields.size()).filter(i -> fields.get(i).kind.isReference()).toArray();
  }
}
