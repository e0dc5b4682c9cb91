package dev.layout.bench.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.layout.bench.memory.Target;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SweepReportTest {
    private static final SweepPoint A = new SweepPoint(SweepPoint.Shape.VECTOR, 4, 12, 16, 1000, 1);
    private static final SweepPoint B = new SweepPoint(SweepPoint.Shape.INDEXED_BLOCK, 8, 64, 65536, 16, 4);

    /** A row whose pairs all have the ratios given (mpich NaN: not measured). */
    static SweepReport.Row row(SweepPoint p, String target, String op, double vsHand, double mpich) {
        double engine = 1000 * vsHand;
        double[] e = {engine, engine, engine, engine, engine};
        double[] h = {1000, 1000, 1000, 1000, 1000};
        double[] m = {mpich, mpich, mpich, mpich, mpich};
        SweepGrid.Item item =
                new SweepGrid.Item(p, target.equals("heap") ? Target.HEAP : Target.OFFHEAP, op.equals("pack"));
        return new Samples("words", 0, h, e, m).row(item);
    }

    private static List<SweepReport.Row> rows(double mpichA, double mpichB) {
        return List.of(row(A, "heap", "pack", 1.5, mpichA), row(B, "offheap", "unpack", 0.9, mpichB));
    }

    @Test
    void summaryNamesTheLowestPointOfEachRatio() {
        assertEquals(
                List.of(
                        "min engine/mpich: 0.75 (vector w12 s16 e4 12000B heap pack; 90% [0.75,0.75], missed)",
                        "min engine/hand: 0.90 (indexed_block w64 s65536 e8 4KiB offheap unpack; 90% [0.90,0.90], missed)",
                        "engine >= MPICH: met 1, missed 1, unresolved 0 of 2",
                        "engine >= 0.95 hand: met 1, missed 1, unresolved 0 of 2"),
                SweepReport.summary(rows(2000, 300)));
        assertEquals(
                List.of(
                        "min engine/mpich: not measured (run with --native)",
                        "min engine/hand: 0.90 (indexed_block w64 s65536 e8 4KiB offheap unpack; 90% [0.90,0.90], missed)",
                        "engine >= 0.95 hand: met 1, missed 1, unresolved 0 of 2"),
                SweepReport.summary(rows(Double.NaN, Double.NaN)));
    }

    @Test
    void tableLinesHaveTheColumnsOfTheHeader() {
        SweepReport.Row r = rows(2000, 300).get(0);
        String line = SweepReport.format(r, true);
        // "hand MB/s" and "mpich MB/s" are two words in the header, one number in a line
        assertEquals(
                SweepReport.header(true).trim().split("\\s+").length - 2,
                line.trim().split("\\s+").length,
                line);
        assertTrue(line.startsWith("vector"), line);
        assertTrue(line.trim().replaceAll("\\s+", " ").endsWith("0.75 [0.75,0.75] missed"), line);
        assertTrue(SweepReport.format(r, false).trim().replaceAll("\\s+", " ").endsWith("1.50 [1.50,1.50] met"), line);
    }

    @Test
    void writesTheMarkdownAndTheChart(@TempDir Path dir) throws Exception {
        SweepReport.write(
                dir, rows(2000, 300), "bin/layout bench sweep --quick --native", "MPICH Version: 4.0.2", "2 (test)");
        String md = Files.readString(dir.resolve(SweepReport.MARKDOWN));
        assertTrue(md.contains("min engine/mpich: 0.75 (vector w12 s16 e4 12000B heap pack; 90%"), md);
        assertTrue(md.contains("engine >= MPICH: met 1, missed 1, unresolved 0 of 2"), md);
        assertTrue(
                md.contains(
                        "| indexed_block | 8 | 64 | 65536 | 4096 | offheap | unpack | 1000.0 | words | 900.0 | 0.90 | [0.90,0.90] | missed | 300.0 | 3.00 | [3.00,3.00] | met | 5 |"),
                md);
        assertTrue(md.contains("MPICH Version: 4.0.2"), md);
        assertTrue(Files.size(dir.resolve(SweepReport.CHART)) > 1000);
    }
}
