package dev.layout.normalize;

import dev.layout.testing.Json;
import java.util.List;
import java.util.Map;

/** The normalizer conformance vectors ({@code conformance/normalizer-paths.jsonl.gz}). */
final class Vectors {
    private Vectors() {}

    static final String RESOURCE = "/conformance/normalizer-paths.jsonl.gz";

    record Case(String id, long[] disps, CostModel model, long optimalCost, String exampleOptimal, List<String> tags) {
        @Override
        public String toString() {
            return id;
        }
    }

    static List<Case> all() {
        return Json.linesOfResource(RESOURCE).stream().map(Vectors::toCase).toList();
    }

    @SuppressWarnings("unchecked")
    static Case toCase(Map<String, Object> m) {
        Map<String, Object> c = (Map<String, Object>) m.get("costs");
        CostModel model = model((String) m.get("model"), c);
        return new Case(
                (String) m.get("id"),
                Json.longs(m.get("disps")),
                model,
                ((Number) m.get("optimal_cost")).longValue(),
                (String) m.get("example_optimal"),
                (List<String>) m.get("tags"));
    }

    static CostModel model(String name, Map<String, Object> c) {
        return switch (name) {
            case "storage" -> CostModel.storage(l(c, "Kcon"), l(c, "Kvec"), l(c, "Kidx"));
            case "processing" ->
                CostModel.processing(
                        l(c, "Kcon"), l(c, "Kvec"), l(c, "Kidx"), l(c, "Ccon"), l(c, "Cvec"), l(c, "Cidx"));
            default -> throw new IllegalArgumentException("model " + name);
        };
    }

    private static long l(Map<String, Object> c, String k) {
        return ((Number) c.get(k)).longValue();
    }
}
