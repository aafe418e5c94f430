package io.hasp.spring.boot;

import io.hasp.HaspClient;
import io.hasp.inspect.HeldLock;
import io.hasp.inspect.LockInfo;
import io.hasp.inspect.PlainViews;
import io.hasp.lock.rw.ForceUnlock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.Selector.Match;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.WebEndpoint;

/**
 * The Actuator endpoint {@code hasp}: what this instance's client holds, and what Redis holds for any lock.
 *
 * <ul>
 *   <li>{@code GET /actuator/hasp}: the client (its id, its server with the password hidden, whether it is closed,
 *       its holds and the holds it lost) and each of its holds (name, kind, owner, hold count, held since, lease left,
 *       watchdog, fencing token), as the client records them;</li>
 *   <li>{@code GET /actuator/hasp/{name}}: {@code inspect(name)}, one round trip that changes nothing: kind,
 *       holders with their processes, lease, fencing token, fair queue, waiting processes, listeners;</li>
 *   <li>{@code DELETE /actuator/hasp/{name}}: force-unlock, which frees the lock whoever holds it. It is refused
 *       (403) unless the application sets {@code hasp.endpoint.force-unlock-enabled=true}; each use is logged at
 *       WARN with the holders it removed. A holder whose lock is forced open does not know it until it unlocks or
 *       renews: two holders may then work at once, which is why it is off by default.</li>
 * </ul>
 *
 * A web endpoint (not offered over JMX), served only when the application exposes it
 * ({@code management.endpoints.web.exposure.include=hasp}). The JSON keys are those of {@link PlainViews}. A name is
 * the rest of the path, its segments joined by {@code /}: a name with an empty segment ({@code a//b}, a leading or
 * trailing {@code /}) cannot be addressed here (the command line can). The lock's name is logged with its control
 * characters escaped.
 */
@WebEndpoint(id = "hasp")
public class HaspEndpoint {

    private static final Logger log = LoggerFactory.getLogger(HaspEndpoint.class);

    /** HTTP's Forbidden, which {@link WebEndpointResponse} does not name. */
    private static final int FORBIDDEN = 403;

    private final HaspClient client;
    private final boolean forceUnlockEnabled;

    /**
     * @param client the client shown
     * @param forceUnlockEnabled whether the force-unlock operation runs ({@code hasp.endpoint.force-unlock-enabled})
     */
    public HaspEndpoint(HaspClient client, boolean forceUnlockEnabled) {
        this.client = client;
        this.forceUnlockEnabled = forceUnlockEnabled;
    }

    /** @return the client's state and its holds, sorted by name */
    @ReadOperation
    public Map<String, Object> client() {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("clientId", client.id());
        view.put("server", client.config().redactedUri());
        view.put("closed", client.isClosed());
        view.put("heldLocks", client.heldLocks());
        view.put("lostHolds", client.lostHolds());
        view.put("forceUnlockEnabled", forceUnlockEnabled);
        List<HeldLock> holds = new ArrayList<>(client.inspector().holds());
        holds.sort(Comparator.comparing(HeldLock::name));
        view.put("holds", holds.stream().map(PlainViews::of).toList());
        return view;
    }

    /**
     * @param name the lock's name, the rest of the path (a name with {@code /} spans several segments)
     * @return what Redis holds for it
     */
    @ReadOperation
    public Map<String, Object> lock(@Selector(match = Match.ALL_REMAINING) String[] name) {
        return PlainViews.of(client.inspector().inspect(String.join("/", name)));
    }

    /**
     * Frees {@code name} whoever holds it, when the application enabled it.
     *
     * @param path the lock's name, the rest of the path
     * @return 200 with {@code unlocked} (whether it was held) and the holders removed; 403 when not enabled; 400 when
     *     the name is a synchronizer or another key, not a lock
     */
    @DeleteOperation
    public WebEndpointResponse<Map<String, Object>> forceUnlock(@Selector(match = Match.ALL_REMAINING) String[] path) {
        String name = String.join("/", path);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", name);
        if (!forceUnlockEnabled) {
            log.warn("force-unlock of lock {} through the hasp endpoint refused: hasp.endpoint.force-unlock-enabled is"
                    + " not set", printable(name));
            body.put("error", "force-unlock is disabled (set hasp.endpoint.force-unlock-enabled=true to enable it)");
            return new WebEndpointResponse<>(body, FORBIDDEN);
        }
        LockInfo before = client.inspector().inspect(name);
        boolean unlocked;
        try {
            unlocked = ForceUnlock.run(client, before);
        } catch (IllegalArgumentException notALock) {
            body.put("error", notALock.getMessage());
            return new WebEndpointResponse<>(body, WebEndpointResponse.STATUS_BAD_REQUEST);
        }
        List<String> holders = before.holders().stream().map(holder -> holder.owner()
                + before.process(holder.clientId()).map(process -> " (" + process.describe() + ")").orElse("")).toList();
        log.warn("force-unlock of lock {} through the hasp endpoint: {}", printable(name),
                unlocked ? "removed the holders " + holders : "it was not held");
        body.put("unlocked", unlocked);
        body.put("holders", holders);
        return new WebEndpointResponse<>(body, WebEndpointResponse.STATUS_OK);
    }

    /** {@code name} with control characters escaped, so that a name cannot forge a line of the log. */
    private static String printable(String name) {
        StringBuilder out = new StringBuilder(name.length());
        name.codePoints().forEach(c -> {
            if (Character.isISOControl(c)) {
                out.append(String.format("\\u%04x", c));
            } else {
                out.appendCodePoint(c);
            }
        });
        return out.toString();
    }
}
