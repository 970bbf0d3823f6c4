package io.distlock.core;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * The public surface of one jar's API packages, and the internal types it shows: a type a user can
 * reach in an API package shows an internal type if it has one among its supertypes (however far
 * up), or names one in a public or protected member's signature (inherited members, type
 * arguments and type-variable bounds included). Shared with the starter's tests through
 * lock-core's test jar: one check for every published jar.
 */
public final class ApiSurface {

    private final Path classes;
    private final Set<String> apiPackages;
    private final Predicate<String> internalPackage;

    /**
     * @param apiType         any type of the jar's API: where its classes are is where the API
     *                        packages are read from
     * @param apiPackages     the packages users build on
     * @param internalPackage whether a package is internal (of this jar or another)
     */
    public ApiSurface(Class<?> apiType, Set<String> apiPackages, Predicate<String> internalPackage) {
        try {
            this.classes = Path.of(apiType.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(apiType + " was loaded from no file", e);
        }
        this.apiPackages = apiPackages;
        this.internalPackage = internalPackage;
    }

    /**
     * @param pkg  a package name
     * @param root a package name
     * @return whether the package is the root or under it
     */
    public static boolean inPackage(String pkg, String root) {
        return pkg.equals(root) || pkg.startsWith(root + ".");
    }

    /** @return the jar's compiled classes: a directory, or the jar itself */
    public Path classes() {
        return classes;
    }

    /**
     * @return each internal type the API shows, once per API type that shows it, as
     *         {@code "<api type> shows <internal type>"}
     * @throws IOException            if the classes cannot be listed
     * @throws ClassNotFoundException if a listed class cannot be loaded
     */
    public List<String> leaks() throws IOException, ClassNotFoundException {
        Set<String> leaks = new LinkedHashSet<>();
        for (Class<?> type : apiTypes()) {
            List<Type> shown = new ArrayList<>(supertypes(type));
            shown.addAll(List.of(type.getTypeParameters()));
            Stream.concat(Stream.of(type.getFields()), Stream.of(type.getDeclaredFields())).filter(ApiSurface::visible)
                    .forEach(field -> shown.add(field.getGenericType()));
            Stream.of(Stream.of(type.getDeclaredConstructors()), Stream.of(type.getMethods()),
                            Stream.of(type.getDeclaredMethods())).flatMap(members -> members)
                    .filter(ApiSurface::visible).forEach(member -> shown.addAll(signature(member)));
            for (Type each : shown) {
                internalTypesIn(each, new HashSet<>()).forEach(internal -> leaks.add(type.getName() + " shows " + internal.getName()));
            }
        }
        return List.copyOf(leaks);
    }

    /**
     * @return the public types of the API packages that a user can reach (public all the way out)
     * @throws IOException            if the classes cannot be listed
     * @throws ClassNotFoundException if a listed class cannot be loaded
     */
    public List<Class<?>> apiTypes() throws IOException, ClassNotFoundException {
        if (Files.isDirectory(classes)) {
            return apiTypesIn(classes);
        }
        try (FileSystem jar = FileSystems.newFileSystem(classes)) {
            return apiTypesIn(jar.getPath("/"));
        }
    }

    /** @param root the root of a classes directory or of a jar */
    private List<Class<?>> apiTypesIn(Path root) throws IOException, ClassNotFoundException {
        List<Class<?>> types = new ArrayList<>();
        for (String pkg : apiPackages) {
            try (Stream<Path> files = Files.list(root.resolve(pkg.replace('.', '/')))) {
                for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                    String name = file.getFileName().toString().replace(".class", "");
                    if (name.equals("package-info")) {
                        continue;
                    }
                    Class<?> type = Class.forName(pkg + "." + name, false, ApiSurface.class.getClassLoader());
                    if (reachable(type)) {
                        types.add(type);
                    }
                }
            }
        }
        return types;
    }

    /** A public type, or a protected one nested in a reachable type, all the way out. */
    private static boolean reachable(Class<?> type) {
        for (Class<?> c = type; c != null; c = c.getDeclaringClass()) {
            boolean nested = c.getDeclaringClass() != null;
            boolean open = Modifier.isPublic(c.getModifiers()) || (nested && Modifier.isProtected(c.getModifiers()));
            if (!open || c.isAnonymousClass() || c.isLocalClass()) {
                return false;
            }
        }
        return true;
    }

    /** @return every supertype of the type, however far up, as declared (with type arguments) */
    private static List<Type> supertypes(Class<?> type) {
        List<Type> found = new ArrayList<>();
        List<Class<?>> pending = new ArrayList<>(List.of(type));
        while (!pending.isEmpty()) {
            Class<?> next = pending.remove(pending.size() - 1);
            if (next.getGenericSuperclass() != null) {
                found.add(next.getGenericSuperclass());
                pending.add(next.getSuperclass());
            }
            found.addAll(List.of(next.getGenericInterfaces()));
            pending.addAll(List.of(next.getInterfaces()));
        }
        return found;
    }

    private static boolean visible(Member member) {
        return !member.isSynthetic() && (Modifier.isPublic(member.getModifiers())
                || Modifier.isProtected(member.getModifiers()));
    }

    private static List<Type> signature(Executable member) {
        List<Type> types = new ArrayList<>(List.of(member.getGenericParameterTypes()));
        types.addAll(List.of(member.getTypeParameters()));
        types.addAll(List.of(member.getGenericExceptionTypes()));
        if (member instanceof Method method) {
            types.add(method.getGenericReturnType());
        } else if (!(member instanceof Constructor<?>)) {
            throw new IllegalArgumentException(member.toString());
        }
        return types;
    }

    /**
     * @param seen the type variables already followed (a bound may name its variable again:
     *             {@code T extends Comparable<T>})
     * @return the internal classes a type names, type arguments and bounds included
     */
    private List<Class<?>> internalTypesIn(Type type, Set<TypeVariable<?>> seen) {
        List<Class<?>> found = new ArrayList<>();
        if (type instanceof Class<?> c) {
            Class<?> element = c;
            while (element.isArray()) {
                element = element.getComponentType();
            }
            String pkg = element.getPackageName();
            if (internalPackage.test(pkg)) {
                found.add(element);
            }
        } else if (type instanceof TypeVariable<?> variable) {
            if (seen.add(variable)) {
                for (Type bound : variable.getBounds()) {
                    found.addAll(internalTypesIn(bound, seen));
                }
            }
        } else if (type instanceof ParameterizedType parameterized) {
            found.addAll(internalTypesIn(parameterized.getRawType(), seen));
            for (Type argument : parameterized.getActualTypeArguments()) {
                found.addAll(internalTypesIn(argument, seen));
            }
        } else if (type instanceof WildcardType wildcard) {
            Stream.concat(Stream.of(wildcard.getUpperBounds()), Stream.of(wildcard.getLowerBounds()))
                    .forEach(bound -> found.addAll(internalTypesIn(bound, seen)));
        } else if (type instanceof GenericArrayType array) {
            found.addAll(internalTypesIn(array.getGenericComponentType(), seen));
        }
        return found;
    }
}
