package org.rivermonitor.web;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** {@code GET /} (mapped to the context root only): links to the pages. */
public final class IndexServlet extends HttpServlet {

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setContentType("text/html;charset=utf-8");
        resp.getWriter().write("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>River monitor</title></head>"
                + "<body><h1>River monitor</h1><ul>"
                + "<li><a href=\"levels\">Current levels</a></li>"
                + "<li><a href=\"chart?river=1&amp;hours=12\">Chart of river 1, last 12 hours</a></li>"
                + "<li><a href=\"status/collections\">Collection status (JSON)</a></li>"
                + "</ul></body></html>\n");
    }
}
