package io.distlock.faults.checker;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code TOKEN}: a fenced hold whose token is not above the token of every fenced hold of that
 * name that had ended before its acquisition call began (that hold's grant, and so its token,
 * came before this one's). Never excused: the fence counter never expires, and the checker never
 * restarts Redis, so no lease expiry or fault explains a token that does not grow.
 */
final class TokenCheck {

    /**
     * @param ops every operation of the run
     * @return the inversions
     */
    List<Finding> check(List<OpRecord> ops) {
        Map<String, List<OpRecord>> byName = new LinkedHashMap<>();
        for (OpRecord op : ops) {
            if (op.held() && op.kind() == LockKind.FENCED && op.token() >= 0 && op.exit() >= 0) {
                byName.computeIfAbsent(op.locks().get(0), name -> new ArrayList<>()).add(op);
            }
        }
        List<Finding> violations = new ArrayList<>();
        byName.forEach((name, fenced) -> {
            List<OpRecord> byStart = fenced.stream().sorted(Comparator.comparingLong(OpRecord::callStart)).toList();
            List<OpRecord> byExit = fenced.stream().sorted(Comparator.comparingLong(OpRecord::exit)).toList();
            int ended = 0;
            OpRecord highest = null;
            for (OpRecord hold : byStart) {
                while (ended < byExit.size() && byExit.get(ended).exit() < hold.callStart()) {
                    OpRecord before = byExit.get(ended++);
                    if (highest == null || before.token() > highest.token()) {
                        highest = before;
                    }
                }
                if (highest != null && hold.token() <= highest.token()) {
                    violations.add(new Finding("TOKEN", hold.holder() + " got token " + hold.token() + " on "
                            + name.substring(2) + " after " + highest.holder() + " had held it with token "
                            + highest.token(), List.of(highest, hold)));
                }
            }
        });
        return violations;
    }
}
