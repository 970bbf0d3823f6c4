package io.distlock.spring.aop;

import org.jspecify.annotations.Nullable;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.Expression;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.ast.VariableReference;
import org.springframework.expression.spel.standard.SpelExpression;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Checks at startup that every {@code #variable} of a key expression names something the call
 * will have: a parameter of the method (by name, or as {@code #p0}/{@code #a0}), {@code #root}
 * or {@code #this}. A typo such as {@code #orderid} for {@code #orderId} would otherwise evaluate
 * to null at the first call.
 */
final class LockKeyVariables {

    private static final ParameterNameDiscoverer PARAMETER_NAMES = new DefaultParameterNameDiscoverer();

    private LockKeyVariables() {
    }

    /**
     * @param key    the parsed key expression
     * @param method the method as the target class declares it (its parameter names are used)
     * @param where  the annotated method, for messages
     * @throws InvalidLockAnnotationException naming the unknown variables, the parameters that exist and,
     *                               when names are missing, the {@code -parameters} compiler flag
     */
    static void check(Expression key, Method method, String where) {
        if (!(key instanceof SpelExpression spel)) {
            return;
        }
        String[] names = PARAMETER_NAMES.getParameterNames(method);
        Set<String> known = known(method.getParameterCount(), names);
        List<String> unknown = new ArrayList<>();
        collect(spel.getAST(), known, unknown);
        if (unknown.isEmpty()) {
            return;
        }
        String parameters = names == null
                ? "its parameter names are not known here: compile with -parameters (Spring Boot's Maven and Gradle "
                        + "plugins set it), or refer to parameters by position as #p0, #p1, ..."
                : "its parameters are " + Arrays.toString(names) + " (by position #p0, #p1, ...; #root and #this exist "
                        + "too). Parameter names come from compiling with -parameters";
        throw new InvalidLockAnnotationException(where, "key '" + key.getExpressionString() + "' refers to "
                + String.join(", ", unknown) + ", which is not a parameter of the method: " + parameters);
    }

    private static Set<String> known(int parameterCount, String @Nullable [] names) {
        Set<String> known = new LinkedHashSet<>(List.of("root", "this"));
        for (int i = 0; i < parameterCount; i++) {
            known.add("p" + i);
            known.add("a" + i);
        }
        if (names != null) {
            known.addAll(Arrays.asList(names));
        }
        return known;
    }

    private static void collect(SpelNode node, Set<String> known, List<String> unknown) {
        if (node instanceof VariableReference) {
            String reference = node.toStringAST();  // "#name"
            if (!known.contains(reference.substring(1)) && !unknown.contains(reference)) {
                unknown.add(reference);
            }
        }
        for (int i = 0; i < node.getChildCount(); i++) {
            collect(node.getChild(i), known, unknown);
        }
    }
}
