package org.rivermonitor.web;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import javax.imageio.ImageIO;
import org.rivermonitor.Reading;
import org.rivermonitor.River;
import org.rivermonitor.collector.LatestLevels;
import org.rivermonitor.generator.SensorModel;

/**
 * {@code GET /levels.png}: a small bar chart of all current levels, from memory. Drawn directly with
 * Java2D (no axes, no text) so that it stays cheap enough to refresh often.
 */
public final class LevelsImageServlet extends HttpServlet {

    static final int HEIGHT = 120;

    private static final Color NORMAL = new Color(0x2e, 0x86, 0xc1);
    private static final Color WARNING = new Color(0xf3, 0x9c, 0x12);
    private static final Color DANGER = new Color(0xc0, 0x39, 0x2b);

    private final List<River> rivers;
    private final LatestLevels levels;

    public LevelsImageServlet(List<River> rivers, LatestLevels levels) {
        this.rivers = rivers;
        this.levels = levels;
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        int bar = Math.max(1, Math.min(8, 600 / Math.max(1, rivers.size())));
        int width = Math.max(100, rivers.size() * bar + 4);
        BufferedImage image = new BufferedImage(width, HEIGHT, BufferedImage.TYPE_BYTE_INDEXED);
        Graphics2D g = image.createGraphics();
        try {
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, width, HEIGHT);
            double scale = (HEIGHT - 4) / SensorModel.MAX_LEVEL_M * 1.5;
            for (int i = 0; i < rivers.size(); i++) {
                River river = rivers.get(i);
                Reading r = levels.get(river.id());
                if (r == null) {
                    continue;
                }
                int h = (int) Math.min(HEIGHT - 2, Math.round(r.levelM() * scale));
                g.setColor(r.levelM() >= river.dangerLevelM() ? DANGER
                        : r.levelM() >= river.warningLevelM() ? WARNING : NORMAL);
                g.fillRect(2 + i * bar, HEIGHT - 2 - h, Math.max(1, bar - 1), h);
            }
            g.setColor(Color.GRAY);
            g.drawLine(0, HEIGHT - 2, width, HEIGHT - 2);
        } finally {
            g.dispose();
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(8 * 1024);
        ImageIO.write(image, "png", out);
        resp.setContentType("image/png");
        resp.setHeader("Cache-Control", "no-cache");
        resp.setContentLength(out.size());
        out.writeTo(resp.getOutputStream());
    }
}
