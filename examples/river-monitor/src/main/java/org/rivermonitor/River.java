package org.rivermonitor;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** A monitored river (one sensor station). Ids run from 1 to the number of rivers. */
public record River(int id, String name, double warningLevelM, double dangerLevelM) {

    private static final String[] NAMES = {
        "Arakawa", "Tamagawa", "Sumidagawa", "Edogawa", "Tonegawa", "Nakagawa", "Ayasegawa",
        "Kandagawa", "Meguro", "Shakujii", "Sagamigawa", "Tsurumigawa", "Kinugawa", "Kokaigawa",
        "Watarase", "Iruma", "Asakawa", "Nogawa", "Zenpukuji", "Myoshoji", "Shibuya", "Furukawa",
        "Ochiai", "Yanase", "Kurome"
    };

    /** The fixed set of rivers 1..count, with names and alarm levels derived from the id. */
    public static List<River> all(int count, long seed) {
        List<River> rivers = new ArrayList<>(count);
        for (int id = 1; id <= count; id++) {
            int i = id - 1;
            String name = NAMES[i % NAMES.length] + (i >= NAMES.length ? " " + (i / NAMES.length + 1) : "");
            double normal = org.rivermonitor.generator.SensorModel.forRiver(seed, id).normalLevelM();
            double warning = Math.round((normal + 2.0) * 10) / 10.0;
            double danger = Math.round((normal + 3.5) * 10) / 10.0;
            rivers.add(new River(id, name, warning, danger));
        }
        return Collections.unmodifiableList(rivers);
    }
}
