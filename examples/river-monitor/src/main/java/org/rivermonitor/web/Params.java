package org.rivermonitor.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import org.rivermonitor.River;

/** Request parameter checks shared by the servlets. */
final class Params {

    private Params() {
    }

    /** The river named by the 'river' parameter, or null after answering 400. */
    static River river(HttpServletRequest req, HttpServletResponse resp, List<River> rivers) throws IOException {
        String text = req.getParameter("river");
        if (text == null || text.isBlank()) {
            badRequest(resp, "missing parameter 'river' (1.." + rivers.size() + ")");
            return null;
        }
        int id;
        try {
            id = Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            badRequest(resp, "unknown river: " + text + " (1.." + rivers.size() + ")");
            return null;
        }
        if (id < 1 || id > rivers.size()) {
            badRequest(resp, "unknown river: " + id + " (1.." + rivers.size() + ")");
            return null;
        }
        return rivers.get(id - 1);
    }

    static void badRequest(HttpServletResponse resp, String message) throws IOException {
        error(resp, HttpServletResponse.SC_BAD_REQUEST, message);
    }

    /** A plain-text error: the message is the whole body. */
    static void error(HttpServletResponse resp, int status, String message) throws IOException {
        resp.setStatus(status);
        resp.setContentType("text/plain;charset=utf-8");
        resp.setHeader("Cache-Control", "no-store");
        resp.getWriter().println(message);
    }
}
