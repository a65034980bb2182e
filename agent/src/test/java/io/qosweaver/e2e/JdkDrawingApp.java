package io.qosweaver.e2e;

import com.sun.tools.attach.VirtualMachine;
import io.qosweaver.agent.bootstrap.CallProbe;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Path2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import javax.imageio.ImageIO;
import javax.management.ObjectName;

/**
 * Run by ProfileIT in a child JVM ({@code -Djdk.attach.allowAttachSelf=true}): draws an
 * anti-aliased chart-like image and encodes it as PNG, so the JDK's Marlin renderer and PNG writer
 * are loaded and run; then attaches the agent in profiling mode to itself (agentmain: those JDK
 * classes are already loaded and must be retransformed), draws again, and stops the profile over
 * JMX. Prints {@code STOPPED <summary>} and exits.
 *
 * <p>Arguments: the agent jar and the agent arguments ({@code profile=FILE,include=...}).
 */
public final class JdkDrawingApp {
    private JdkDrawingApp() {}

    static int draw(int seed) throws Exception {
        BufferedImage img = new BufferedImage(600, 300, BufferedImage.TYPE_INT_ARGB);
        Graphics2D g = img.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, 600, 300);
            g.setColor(Color.BLUE);
            g.setStroke(new BasicStroke(1.5f));
            Path2D.Double line = new Path2D.Double();
            double y = 150;
            line.moveTo(0, y);
            for (int x = 1; x < 600; x++) {
                y += Math.sin((x + seed) * 0.37) * 6;
                line.lineTo(x, y);
            }
            g.draw(line);
            for (int x = 0; x < 600; x += 10) {
                g.fill(new Ellipse2D.Double(x - 2, 150 + 40 * Math.sin(x * 0.05) - 2, 4, 4));
            }
        } finally {
            g.dispose();
        }
        ByteArrayOutputStream png = new ByteArrayOutputStream();
        if (!ImageIO.write(img, "png", png)) {
            throw new IllegalStateException("no PNG writer");
        }
        return png.size();
    }

    public static void main(String[] args) throws Exception {
        draw(0); // Marlin and the PNG writer are loaded before the agent is
        VirtualMachine vm = VirtualMachine.attach(Long.toString(ProcessHandle.current().pid()));
        try {
            vm.loadAgent(args[0], args[1]);
        } finally {
            vm.detach();
        }
        int bytes = 0;
        for (int i = 1; i <= 3; i++) {
            bytes += draw(i);
        }
        Object summary = ManagementFactory.getPlatformMBeanServer().invoke(new ObjectName("io.qosweaver:type=Profiler"),
                "stop", null, null);
        System.out.println("DREW " + bytes + " bytes of PNG");
        System.out.println("STOPPED " + summary);
    }
}
