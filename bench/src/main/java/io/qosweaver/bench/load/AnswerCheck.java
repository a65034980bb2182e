package io.qosweaver.bench.load;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * What a served answer must contain: {@code text} at least {@code count} times. A status below 400 says
 * only that the server began to answer; an application can fail after it (Tika 1.28 on JDK 25 answered 200
 * with 99 of a document's 100 pages), and a load driver that counted that as served would credit it with
 * throughput it did not deliver. The body is scanned as it streams in, never kept.
 *
 * @param text  what to look for, matched as its UTF-8 bytes
 * @param count how many times at least
 */
public record AnswerCheck(String text, int count) {

    public AnswerCheck {
        Objects.requireNonNull(text, "text");
        if (text.isEmpty()) {
            throw new IllegalArgumentException("an answer check needs a non-empty text");
        }
        if (count < 1) {
            throw new IllegalArgumentException("an answer check needs a count of at least 1, got " + count);
        }
    }

    /** A body handler whose body is the number of times {@code text} occurs in the answer (overlaps counted). */
    public HttpResponse.BodyHandler<Integer> handler() {
        byte[] pattern = text.getBytes(StandardCharsets.UTF_8);
        int[] failure = failure(pattern);
        return info -> new Counter(pattern, failure);
    }

    /** Null when {@code found} satisfies this check, else the error a driver records. */
    public String failure(int found) {
        return found >= count ? null : "answer: " + found + " of " + count + " '" + text + "'";
    }

    /** Knuth-Morris-Pratt's failure function: a match may start inside the previous one, across chunks. */
    static int[] failure(byte[] p) {
        int[] f = new int[p.length];
        for (int i = 1, k = 0; i < p.length; i++) {
            while (k > 0 && p[i] != p[k]) {
                k = f[k - 1];
            }
            if (p[i] == p[k]) {
                k++;
            }
            f[i] = k;
        }
        return f;
    }

    /** Counts occurrences over the chunks as they arrive; one per request, used by one thread at a time. */
    static final class Counter implements HttpResponse.BodySubscriber<Integer> {
        private final byte[] pattern;
        private final int[] failure;
        private final CompletableFuture<Integer> result = new CompletableFuture<>();
        private int matched;
        private int found;

        Counter(byte[] pattern, int[] failure) {
            this.pattern = pattern;
            this.failure = failure;
        }

        void scan(ByteBuffer b) {
            while (b.hasRemaining()) {
                byte c = b.get();
                while (matched > 0 && c != pattern[matched]) {
                    matched = failure[matched - 1];
                }
                if (c == pattern[matched]) {
                    matched++;
                    if (matched == pattern.length) {
                        found++;
                        matched = failure[matched - 1];
                    }
                }
            }
        }

        int found() {
            return found;
        }

        @Override
        public CompletionStage<Integer> getBody() {
            return result;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> items) {
            for (ByteBuffer b : items) {
                scan(b);
            }
        }

        @Override
        public void onError(Throwable throwable) {
            result.completeExceptionally(throwable);
        }

        @Override
        public void onComplete() {
            result.complete(found);
        }
    }
}
